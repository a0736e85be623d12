/**
 * Cursor agent transcripts (docs/formats.md, Cursor): the JSONL files Cursor's agent writes under
 * `~/.cursor/projects/<project>/agent-transcripts/` (one `{role, message: {content: [...]}}` per line,
 * Anthropic-style content blocks), subagents in `<session>/subagents/<id>.jsonl`. The lines name no
 * session: the file name is the session's id, and a subagent's folder its parent's
 * (`cursorTranscriptPath`, applied by the import driver and the folder import).
 *
 * Decisions, following what the files hold:
 * - A line is one message: `user` lines are the user's text (Cursor wraps the typed request in
 *   `<user_query>` tags, kept as the model saw them; the title drops them), `assistant` lines one
 *   model output with its thinking, text and tool calls.
 * - Cursor writes no call ids and, in the files seen, no tool results: each call gets the id
 *   `l<line>.t<n>`. A `tool_result` block (some exports carry them) answers the call its
 *   `tool_use_id` names when that is a call's id, else the oldest call still unanswered; it becomes
 *   a tool entry of its own. A result with no call to answer is kept, reported, and left orphaned.
 * - The files record no usage (a `model` beside an assistant line is kept) and no time but the
 *   request's `<timestamp>`, which dates its entry (and leaves the title); a `{type: ...}` record
 *   without a role is a harness marker, counted as understood and not turned into an entry; a
 *   `turn_ended` that is not a success flags the turn's last response aborted (and an error when
 *   its status is `error`) (cursor-turn.ts).
 * - A block of another type keeps its `text` (reported once per line), a line of another role is
 *   reported by line and skipped.
 */
import type { Block, TextBlock, ToolResultBlock } from '../journal/entry.ts';
import { clipWords } from '../summarize/clip.ts';
import { base64Bytes, EntryBuilder, describe, isRecord, str } from './builder.ts';
import { cursorRequestTime, cursorTurnEnd, withoutCursorTimestamp } from './cursor-turn.ts';
import type { ImportResult, LineImporter } from './types.ts';

const CALL_TYPES = new Set(['tool_use', 'tool-use', 'tool_call', 'tool-call']);
const RESULT_TYPES = new Set(['tool_result', 'tool-result']);
const USER_QUERY = /<\/?user_query>/g;

/** Longest title taken from the first request, characters. */
const TITLE_MAX_CHARS = 80;

/**
 * The session a Cursor transcript's path names: `<session id>.jsonl`, a subagent's
 * `<session id>/subagents/<id>.jsonl` (its parent by the folder). Claude Code's subagents
 * (`agent-<id>.jsonl`) are linked by their own lines, so they are left alone.
 */
export function cursorTranscriptPath(path: string): { sessionId: string; parentSessionId?: string } | undefined {
  const match = /(?:^|\/)(?:([^/]+)\/subagents\/)?([^/]+)\.jsonl$/i.exec(path);
  if (!match || match[2]!.startsWith('agent-')) return undefined;
  return { sessionId: match[2]!, ...(match[1] ? { parentSessionId: match[1] } : {}) };
}

export function createCursorImporter(): LineImporter {
  return new CursorImporter();
}

class CursorImporter implements LineImporter {
  private readonly builder = new EntryBuilder('cursor');
  /** Calls not yet answered, oldest first. */
  private readonly open: string[] = [];

  line(value: Record<string, unknown>, lineNo: number): void {
    this.builder.lines++;
    const role = str(value.role);
    if (role === undefined && typeof value.type === 'string') {
      this.builder.ignoredLines++;
      const end = cursorTurnEnd(value);
      const last = this.builder.entries.at(-1);
      if (end?.cut && last?.role === 'assistant') last.flags = { ...last.flags, aborted: true, ...(end.error ? { error: true } : {}) };
      return;
    }
    if (role !== 'user' && role !== 'assistant') {
      this.builder.issue(lineNo, `"role" is ${describe(value.role)} (expected "user" or "assistant"); skipped`, role === undefined ? 'malformed' : 'unsupported');
      return;
    }
    const message = value.message;
    const content = isRecord(message) ? message.content : undefined;
    if (!Array.isArray(content) && typeof content !== 'string') {
      this.builder.issue(lineNo, `"message.content" is ${describe(content)} (expected an array of content blocks or a string); skipped`);
      return;
    }
    if (role === 'user') this.user(content, lineNo);
    else this.assistant(content, lineNo, str(value.model));
  }

  finish(): ImportResult {
    return this.builder.result();
  }

  private user(content: unknown[] | string, line: number): void {
    const blocks: Block[] = [];
    const results: ToolResultBlock[] = [];
    const unknown = new Set<string>();
    for (const block of typeof content === 'string' ? [{ type: 'text', text: content }] : content) {
      if (!isRecord(block)) continue;
      const type = str(block.type) ?? '';
      if (RESULT_TYPES.has(type)) results.push(this.result(block, line));
      else this.common(block, type, blocks, unknown);
    }
    this.reportUnknown(unknown, line);
    if (blocks.length > 0) {
      const entry = this.builder.push({ id: `l${line}`, line, role: 'user', kind: 'message', blocks, sourceType: 'user' });
      const time = blocks.reduce<number | undefined>((found, block) => found ?? (block.type === 'text' ? cursorRequestTime(block.text) : undefined), undefined);
      if (time !== undefined) entry.timestamp = time;
      if (this.builder.meta.title === undefined) {
        const words = blocks.flatMap((block) => (block.type === 'text' ? [withoutCursorTimestamp(block.text).replace(USER_QUERY, '')] : [])).join('\n').trim();
        if (words) this.builder.meta.title = clipWords(words, TITLE_MAX_CHARS);
      }
    }
    results.forEach((block, n) => {
      this.builder.push({ id: results.length === 1 && blocks.length === 0 ? `l${line}` : `l${line}.r${n + 1}`, line, role: 'tool', kind: 'message', blocks: [block], sourceType: 'user/tool_result' });
    });
    if (blocks.length === 0 && results.length === 0) this.builder.issue(line, 'a user message with no text, image or tool result; skipped', 'unsupported');
  }

  private assistant(content: unknown[] | string, line: number, model: string | undefined): void {
    const blocks: Block[] = [];
    const unknown = new Set<string>();
    let calls = 0;
    for (const block of typeof content === 'string' ? [{ type: 'text', text: content }] : content) {
      if (!isRecord(block)) continue;
      const type = str(block.type) ?? '';
      if (type === 'thinking' || type === 'redacted_thinking') {
        const text = str(block.thinking) ?? str(block.text) ?? '';
        const signature = str(block.signature);
        blocks.push({ type: 'thinking', text, ...(signature ? { signature } : {}), ...(type === 'redacted_thinking' ? { redacted: true } : {}) });
      } else if (CALL_TYPES.has(type)) {
        calls++;
        const callId = str(block.id) ?? `l${line}.t${calls}`;
        this.open.push(callId);
        blocks.push({ type: 'tool_call', callId, name: str(block.name) ?? str(block.tool) ?? 'unknown', input: block.input ?? block.arguments ?? {} });
      } else if (RESULT_TYPES.has(type)) {
        unknown.add(type);
      } else {
        this.common(block, type, blocks, unknown);
      }
    }
    this.reportUnknown(unknown, line);
    if (blocks.length === 0) {
      this.builder.issue(line, 'an assistant message with no text, thinking or tool call; skipped', 'unsupported');
      return;
    }
    this.builder.push({ id: `l${line}`, line, role: 'assistant', kind: 'message', blocks, sourceType: 'assistant', ...(model ? { model } : {}) });
    if (model) this.builder.meta.model ??= model;
  }

  /** Text and images (both roles); another block's `text` is kept and its type noted. */
  private common(block: Record<string, unknown>, type: string, blocks: Block[], unknown: Set<string>): void {
    if (type === 'image') {
      const source = isRecord(block.source) ? block.source : {};
      const data = str(source.data);
      blocks.push({ type: 'image', mediaType: str(source.media_type) ?? 'image', bytes: data ? base64Bytes(data) : 0, source: data ? 'base64' : 'url' });
      return;
    }
    const text = str(block.text);
    if (type !== 'text') unknown.add(type || '(none)');
    if (text) blocks.push({ type: 'text', text });
  }

  /** A tool result answering the call it names, else the oldest unanswered one. */
  private result(block: Record<string, unknown>, line: number): ToolResultBlock {
    const named = str(block.tool_use_id) ?? str(block.toolCallId);
    let callId: string | undefined;
    if (named !== undefined && this.open.includes(named)) callId = named;
    else callId = this.open[0];
    if (callId === undefined) {
      callId = named ?? `l${line}.result`;
      this.builder.issue(line, `a tool result${named ? ` for ${JSON.stringify(named)}` : ''} with no call before it to answer; kept unpaired`, 'unsupported');
    } else {
      this.open.splice(this.open.indexOf(callId), 1);
    }
    const content: TextBlock[] = [];
    const raw = block.content;
    for (const part of Array.isArray(raw) ? raw : [raw]) {
      const text = typeof part === 'string' ? part : isRecord(part) ? str(part.text) : undefined;
      if (text) content.push({ type: 'text', text });
    }
    const result: ToolResultBlock = { type: 'tool_result', callId, content, isError: block.is_error === true };
    const name = str(block.name);
    if (name) result.toolName = name;
    return result;
  }

  private reportUnknown(types: Set<string>, line: number): void {
    if (types.size === 0) return;
    const list = [...types].map((type) => JSON.stringify(type)).join(', ');
    this.builder.issue(line, `content block type ${list} is not a Cursor text, thinking, image, tool call or tool result block; its text was kept`, 'unsupported');
  }
}
