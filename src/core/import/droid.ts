/**
 * Factory Droid sessions (docs/formats.md, Factory Droid), in their two JSONL forms:
 * - the session store, `~/.factory/sessions/<project>/<session id>.jsonl`: a `session_start` line,
 *   then `message` lines holding one Anthropic message each (`{role, content: [blocks]}`), with
 *   `compaction_state` (the summary that replaced older messages) and `todo_state` lines between;
 * - `droid exec --output-format stream-json`: `system` (init), `message` (`role`, `text`),
 *   `tool_call` (`id`, `messageId`, `toolName`, `parameters`), `tool_result` (`id`, `isError`,
 *   `value` or `error`), `completion` (`finalText`) and `error` lines.
 *
 * Decisions:
 * - A store message is read as Anthropic content: thinking kept as thinking, `tool_use` as calls; a
 *   user message's `tool_result` blocks become one tool entry (they answer the calls before them),
 *   its other blocks the user's entry. `visibility: "llm_only"` marks text the harness injected;
 *   a `visibility: "user_only"` message (a hook's run, shown to the user and never sent to the
 *   model) is no entry: counted as a metadata line, what names it as parent hangs under its parent.
 * - A stream's `tool_call` joins the assistant message its `messageId` names (the one just read, or
 *   a new assistant entry when the model wrote no text); a `tool_result` without an id answers the
 *   oldest unanswered call, as the stream is in order.
 * - Store messages form a tree by `parentId` (a rewind writes its new messages under an earlier
 *   one, so a branch stays a branch, as for Claude Code and pi). A `parentId` naming the session is
 *   a root; one naming no earlier message is reported and the entry made a root. A
 *   `compaction_state` line hangs under the entry before it and takes its place as the parent of
 *   what follows (Droid keeps the message chain through a compaction), so the marker stays on the
 *   path it summarizes. Its `anchorMessage` (the last message the summary replaces) sets the
 *   marker's `firstKeptEntryId`: the first message after the anchor, tool results right after it
 *   skipped, as Droid rebuilds its context (droid-anchor.ts); an anchor naming no earlier message is
 *   reported and the marker keeps only what follows it.
 * - A session a Task call started (a subagent, a spawned droid) names its caller in its
 *   `session_start`: `callingSessionId` and `callingToolUseId` become its `meta.subagent`, which
 *   links it under the parent session and the call, as Claude Code's subagents are.
 * - `completion.finalText` is the last assistant message: a new entry only when it differs from it.
 * - Usage per call only where a message records it (`message.usage`); the store's `.settings.json`
 *   and the completion's `usage` are totals of the whole run, not split over calls.
 * - A line type or content block Foldlab does not know is reported by line and name.
 */
import type { Block, CompactionMarker, Entry, TextBlock, ToolResultBlock } from '../journal/entry.ts';
import { EntryBuilder, isRecord, str, toEpochMs, type EntryDraft } from './builder.ts';
import { convertContent, normalizeUsage } from './claude-code-content.ts';
import { DroidAnchors } from './droid-anchor.ts';
import type { ImportResult, LineImporter } from './types.ts';

/** Content block types of a store message (Anthropic's); another type is reported. */
const BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'document']);
/** Store and stream lines that carry no conversation. */
const METADATA_TYPES = new Set(['todo_state', 'agent_turn_outcome', 'session_end', 'settings_updated', 'session_title_updated']);

export function createDroidImporter(): LineImporter {
  return new DroidImporter();
}

type Common = { line: number; sourceType: string; timestamp?: number };

class DroidImporter implements LineImporter {
  private readonly builder = new EntryBuilder('droid');
  /** Stream: the assistant entry of each `messageId` seen, for the calls that follow it. */
  private readonly assistants = new Map<string, Entry>();
  /** Stream: calls not answered yet, oldest first (for results without an id). */
  private readonly unanswered: string[] = [];
  private lastAssistantText: string | undefined;
  /** Store: each message id -> the entry its children hang under (the last entry it became, or a compaction marker after it). */
  private readonly tips = new Map<string, string>();
  /** Store: each `user_only` message id -> the message id it follows (undefined at a root): its children hang there. */
  private readonly passedOver = new Map<string, string | undefined>();
  /** Store: the message id whose tip is the last entry, for a compaction marker to take its place. */
  private lastMessageId: string | undefined;
  /** Store: the messages read so far, for a compaction's `anchorMessage`. */
  private readonly anchors = new DroidAnchors();

  line(value: Record<string, unknown>, lineNo: number): void {
    const builder = this.builder;
    builder.lines++;
    const type = str(value.type);
    const timestamp = toEpochMs(value.timestamp);
    const common: Common = { line: lineNo, sourceType: type ?? 'line', ...(timestamp !== undefined ? { timestamp } : {}) };
    switch (type) {
      case 'session_start':
      case 'system':
        this.session(value);
        builder.ignoredLines++;
        return;
      case 'message':
        if (isRecord(value.message)) this.storeMessage(value, value.message, common);
        else if (typeof value.role === 'string') this.streamMessage(value, common);
        else builder.issue(lineNo, 'a "message" line without a "message" object or a "role"; skipped');
        return;
      case 'compaction_state':
        this.compaction(value, common);
        return;
      case 'tool_call':
        this.streamCall(value, common);
        return;
      case 'tool_result':
        this.streamResult(value, common);
        return;
      case 'completion':
        this.completion(value, common);
        return;
      case 'error':
        builder.push({ ...common, role: 'system', kind: 'event', blocks: [{ type: 'text', text: `[error] ${str(value.message) ?? ''}`.trim() }], flags: { error: true } });
        return;
      default:
        if (type !== undefined && METADATA_TYPES.has(type)) {
          builder.ignoredLines++;
          return;
        }
        builder.issue(lineNo, `${type === undefined ? 'a line without a "type"' : `line type ${JSON.stringify(type)}`} is not a Factory Droid session or stream-json line (keys: ${Object.keys(value).slice(0, 6).join(', ')}); skipped`, 'unsupported');
    }
  }

  finish(): ImportResult {
    return this.builder.result();
  }

  private session(value: Record<string, unknown>): void {
    const meta = this.builder.meta;
    const id = value.type === 'session_start' ? str(value.id) : (str(value.session_id) ?? str(value.sessionId));
    if (id) meta.sessionId ??= id;
    const title = str(value.sessionTitle) ?? str(value.title);
    if (title) meta.title ??= title;
    const cwd = str(value.cwd);
    if (cwd) meta.cwd ??= cwd;
    const model = str(value.model);
    if (model) meta.model ??= model;
    const version = value.version;
    if (typeof version === 'string' || typeof version === 'number') meta.version ??= String(version);
    const caller = str(value.callingSessionId);
    if (value.type === 'session_start' && caller && caller !== id) {
      const call = str(value.callingToolUseId);
      meta.subagent = { parentSessionId: caller, ...(call ? { parentToolUseId: call } : {}) };
    }
  }

  /**
   * The entry a store message hangs under: its `parentId`'s tip; the previous entry when the line
   * has no `parentId` (older files); a root when it names the session or no earlier message.
   */
  private parentOf(value: Record<string, unknown>, lineNo: number): string | null | undefined {
    if (!('parentId' in value)) return undefined;
    let raw = str(value.parentId);
    // A `user_only` message is no entry: what names it hangs where it would have (bounded against a loop of ids).
    for (let hops = 0; raw !== undefined && !this.tips.has(raw) && this.passedOver.has(raw) && hops < 64; hops++) raw = this.passedOver.get(raw);
    if (raw === undefined || raw === this.builder.meta.sessionId) return null;
    const tip = this.tips.get(raw);
    if (tip !== undefined) return tip;
    this.builder.issue(lineNo, `parentId ${JSON.stringify(raw)} names no earlier message; the entry was made a root`);
    return null;
  }

  // ---- the session store ----------------------------------------------------------------------

  /** A compaction marker; its kept history starts after the message its `anchorMessage` names (droid-anchor.ts). */
  private compaction(value: Record<string, unknown>, common: Common): void {
    const builder = this.builder;
    const marker: CompactionMarker = { source: 'droid.compaction_state' };
    if ('anchorMessage' in value && value.anchorMessage !== undefined) {
      const anchor = this.anchors.resolve(value.anchorMessage);
      if ('problem' in anchor) builder.issue(common.line, `${anchor.problem}; the compaction keeps only what follows it`);
      else if (anchor.firstKeptEntryId !== undefined) marker.firstKeptEntryId = anchor.firstKeptEntryId;
    }
    const entry = builder.push({ ...common, ...(str(value.id) ? { id: str(value.id) } : {}), role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: str(value.summaryText) ?? '' }], marker });
    if (this.lastMessageId !== undefined) this.tips.set(this.lastMessageId, entry.id);
  }

  private storeMessage(value: Record<string, unknown>, message: Record<string, unknown>, common: Common): void {
    const builder = this.builder;
    const role = message.role;
    const content = message.content;
    if ((role !== 'user' && role !== 'assistant') || (typeof content !== 'string' && !Array.isArray(content))) {
      builder.issue(common.line, `message ${JSON.stringify(str(value.id) ?? '')} has role ${JSON.stringify(role)} and ${Array.isArray(content) || typeof content === 'string' ? 'content' : 'no content list'} (expected a user or assistant message with content); skipped`);
      return;
    }
    if (Array.isArray(content)) {
      const unknown = [...new Set(content.flatMap((block) => (isRecord(block) && typeof block.type === 'string' && !BLOCK_TYPES.has(block.type) ? [block.type] : [])))];
      if (unknown.length > 0) builder.issue(common.line, `content block type${unknown.length > 1 ? 's' : ''} ${unknown.map((type) => JSON.stringify(type)).join(', ')} kept as text (Foldlab reads text, thinking, tool_use, tool_result, image and document)`, 'unsupported');
    }
    const id = str(value.id);
    // Droid 0.226 writes `visibility` inside the message; older lines put it beside it.
    const visibility = message.visibility ?? value.visibility;
    if (visibility === 'user_only') {
      builder.ignoredLines++;
      if (id !== undefined) this.passedOver.set(id, 'parentId' in value ? str(value.parentId) : this.lastMessageId);
      return;
    }
    const parentId = this.parentOf(value, common.line);
    const blocks = convertContent(content, common.line);
    const flags = visibility === 'llm_only' ? { injected: true } : undefined;
    const parent = parentId === undefined ? {} : { parentId };
    let last: Entry;
    const firstEntry = builder.entries.length;
    if (role === 'assistant') {
      last = builder.push({ ...common, ...(id ? { id } : {}), ...parent, role: 'assistant', kind: 'message', blocks, ...(flags ? { flags } : {}) });
      // Droid 0.226 writes the assistant's model as `modelId` (e.g. "custom:Mock-0"); older lines say `model`.
      const model = str(message.modelId) ?? str(message.model);
      if (model) last.model = model;
      const usage = normalizeUsage(message.usage);
      if (usage) last.usage = usage;
    } else {
      const results = blocks.filter((block) => block.type === 'tool_result');
      const rest = blocks.filter((block) => block.type !== 'tool_result');
      const first = results.length > 0 ? builder.push({ ...common, ...(id ? { id: rest.length > 0 ? `${id}/results` : id } : {}), ...parent, role: 'tool', kind: 'message', blocks: results }) : undefined;
      last = first !== undefined && rest.length === 0 ? first : builder.push({ ...common, ...(id ? { id } : {}), ...(first ? {} : parent), role: 'user', kind: 'message', blocks: rest, ...(flags ? { flags } : {}) });
    }
    if (id !== undefined) this.tips.set(id, last.id);
    this.lastMessageId = id;
    this.anchors.message(id, builder.entries[firstEntry]!.id, last.role === 'tool');
  }

  // ---- stream-json ----------------------------------------------------------------------------

  private streamMessage(value: Record<string, unknown>, common: Common): void {
    const role = value.role;
    const id = str(value.id);
    const text = str(value.text) ?? '';
    if (role !== 'user' && role !== 'assistant') {
      this.builder.issue(common.line, `message ${JSON.stringify(id ?? '')} has role ${JSON.stringify(role)} (expected user or assistant); skipped`);
      return;
    }
    const entry = this.push({ ...common, ...(id ? { id } : {}), role, kind: 'message', blocks: text ? [{ type: 'text', text }] : [] });
    if (role === 'assistant') {
      if (id) this.assistants.set(id, entry);
      this.lastAssistantText = text;
    }
  }

  private streamCall(value: Record<string, unknown>, common: Common): void {
    const callId = str(value.id) ?? str(value.toolCallId) ?? `l${common.line}`;
    const messageId = str(value.messageId);
    const call: Block = { type: 'tool_call', callId, name: str(value.toolName) ?? str(value.toolId) ?? 'unknown', input: value.parameters ?? {} };
    let entry = messageId ? this.assistants.get(messageId) : undefined;
    if (entry && this.builder.entries.at(-1) === entry) {
      entry.blocks.push(call);
      entry.lineEnd = common.line;
    } else {
      entry = this.push({ ...common, ...(messageId && !entry ? { id: messageId } : {}), role: 'assistant', kind: 'message', blocks: [call] });
      if (messageId) this.assistants.set(messageId, entry);
    }
    this.unanswered.push(callId);
  }

  private streamResult(value: Record<string, unknown>, common: Common): void {
    const named = str(value.id) ?? str(value.toolCallId);
    const callId = named ?? this.unanswered[0] ?? `l${common.line}`;
    const at = this.unanswered.indexOf(callId);
    if (at >= 0) this.unanswered.splice(at, 1);
    const error = isRecord(value.error) ? str(value.error.message) : str(value.error);
    const output = value.value;
    const text = output === undefined ? error : typeof output === 'string' ? output : JSON.stringify(output);
    const content: TextBlock[] = text ? [{ type: 'text', text }] : [];
    const block: ToolResultBlock = { type: 'tool_result', callId, content, isError: value.isError === true || (output === undefined && error !== undefined) };
    const name = str(value.toolName) ?? (str(value.toolId) || undefined);
    if (name) block.toolName = name;
    this.push({ ...common, role: 'tool', kind: 'message', blocks: [block] });
  }

  private completion(value: Record<string, unknown>, common: Common): void {
    const text = str(value.finalText);
    if (!text || text === this.lastAssistantText) {
      this.builder.ignoredLines++;
      return;
    }
    this.push({ ...common, role: 'assistant', kind: 'message', blocks: [{ type: 'text', text }] });
    this.lastAssistantText = text;
  }

  private push(draft: EntryDraft): Entry {
    return this.builder.push(draft);
  }
}
