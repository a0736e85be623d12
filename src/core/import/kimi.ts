/**
 * Kimi CLI sessions (docs/formats.md, Kimi CLI): `~/.kimi/sessions/<work dir>/<session id>/` holds
 * - `wire.jsonl`: a `{"type": "metadata", "protocol_version"}` line, then every wire message the
 *   agent sent, `{timestamp, message: {type, payload}}`: `TurnBegin` (the user's input), `StepBegin`,
 *   `ContentPart` (text, `think`, images), `ToolCall`, `ToolResult`, `StatusUpdate` (the step's
 *   `token_usage`), `CompactionBegin`/`End`, `SubagentEvent` (a subagent's own messages, wrapped);
 * - `context.jsonl`: the messages as the model is sent them (`{role, content, tool_calls,
 *   tool_call_id}`), with `_system_prompt`, `_usage` (`token_count`) and `_checkpoint` records.
 *
 * Decisions:
 * - Wire: each step is one assistant response (its parts merged in order, `think` as thinking, its
 *   calls); the step's `StatusUpdate.token_usage` is its usage (input = `input_other` + cache read +
 *   cache creation); each `ToolResult` is a tool entry; an interrupted step is flagged aborted; a
 *   compaction is a marker (the summary itself is written to context.jsonl only).
 * - `SubagentEvent`s form the subagent's thread: a session of its own, linked to the call
 *   (`parent_tool_call_id`) that started it, with its `subagent_type`.
 * - Context: one entry per message. Kimi writes a `_usage` record just before a response (the
 *   step's `usage.input`) and one just after it (`usage.total`): a response between two is given
 *   input = the first, output = the difference (the cache split is not recorded); any other
 *   `_usage` (an estimate after a compaction) gives nothing. A tool message whose first part is
 *   `<system>ERROR: ...</system>` is an error result (kimi-cli `soul/message.py`).
 * - A wire message or record Foldlab does not know is reported by line and type.
 */
import type { Block, Entry, ImageBlock, TextBlock, ThinkingBlock, Usage } from '../journal/entry.ts';
import { describe, EntryBuilder, imageFromUrl, isRecord, num, parseJsonLoose, str, toEpochMs, type EntryDraft } from './builder.ts';
import type { ImportResult, LineImporter, SubagentLink } from './types.ts';

/** Wire messages that carry nothing the model saw. */
const WIRE_METADATA = new Set([
  'TurnEnd', 'StepRetry', 'CompactionBegin', 'MCPLoadingBegin', 'MCPLoadingEnd', 'Notification', 'PlanDisplay', 'BtwBegin', 'BtwEnd',
  'HookTriggered', 'HookResolved', 'ApprovalRequest', 'ApprovalResponse', 'ApprovalRequestResolved', 'ToolCallRequest', 'QuestionRequest',
  'QuestionResponse', 'HookRequest', 'HookResponse',
]);

export function createKimiImporter(): LineImporter {
  return new KimiImporter();
}

type Common = { line: number; sourceType: string; timestamp?: number };

/** One conversation being read from the wire: the session or a subagent. */
class WireThread {
  readonly builder = new EntryBuilder('kimi');
  /** The response of the step being read, while nothing else was written after it. */
  response: Entry | undefined;
  /** The step's usage, kept until its response exists. */
  pendingUsage: Usage | undefined;
  constructor(readonly link?: SubagentLink) {}
}

class KimiImporter implements LineImporter {
  private readonly main = new WireThread();
  private readonly threads = new Map<string, WireThread>();
  /** Context `_usage` pairing: the count of a `_usage` record that was the last record read, and the response read right after one. */
  private usageBefore: number | undefined;
  private usageResponse: { entry: Entry; input: number } | undefined;

  line(value: Record<string, unknown>, lineNo: number): void {
    if (value.type === 'metadata') {
      this.main.builder.lines++;
      const version = str(value.protocol_version);
      if (version) this.main.builder.meta.version = `wire ${version}`;
      this.main.builder.ignoredLines++;
      return;
    }
    if (isRecord(value.message)) {
      this.wire(this.main, value.message, lineNo, toEpochMs(value.timestamp), true);
      return;
    }
    if (typeof value.role === 'string') {
      this.main.builder.lines++;
      this.context(value, lineNo);
      return;
    }
    this.main.builder.lines++;
    this.main.builder.issue(lineNo, `expected a Kimi CLI wire record {timestamp, message: {type, payload}} or a context message {role, content}, got keys ${Object.keys(value).slice(0, 6).join(', ') || 'none'}; skipped`);
  }

  finish(): ImportResult {
    const result = this.main.builder.result();
    const threads = [...this.threads.values()].filter((thread) => thread.builder.entries.length > 0).map((thread) => this.threadResult(thread));
    for (const thread of this.threads.values()) {
      result.issues.push(...thread.builder.issues);
      result.ignoredLines += thread.builder.ignoredLines;
    }
    result.issues.sort((a, b) => a.line - b.line);
    if (threads.length > 0) result.threads = threads;
    return result;
  }

  // ---- wire.jsonl -----------------------------------------------------------------------------

  private wire(thread: WireThread, message: Record<string, unknown>, lineNo: number, timestamp: number | undefined, counted: boolean): void {
    const builder = thread.builder;
    if (counted) builder.lines++;
    const type = str(message.type);
    const payload = message.payload;
    if (type === undefined || !isRecord(payload)) {
      builder.issue(lineNo, `a wire message needs a "type" and a "payload" object, got ${type === undefined ? `"type" ${describe(message.type)}` : `"payload" ${describe(payload)}`}; skipped`);
      return;
    }
    const common: Common = { line: lineNo, sourceType: type, ...(timestamp !== undefined ? { timestamp } : {}) };
    switch (type) {
      case 'TurnBegin':
      case 'SteerInput':
        thread.response = undefined;
        builder.push({ ...common, role: 'user', kind: 'message', blocks: parts(payload.user_input) });
        return;
      case 'StepBegin':
        thread.response = undefined;
        thread.pendingUsage = undefined;
        builder.ignoredLines++;
        return;
      case 'ContentPart':
        this.append(thread, common, parts([payload]), true);
        return;
      case 'ToolCall': {
        const fn = isRecord(payload.function) ? payload.function : {};
        const args = str(fn.arguments);
        const call: Block = { type: 'tool_call', callId: str(payload.id) ?? `l${lineNo}`, name: str(fn.name) ?? 'unknown', input: args === undefined ? {} : parseJsonLoose(args) };
        this.append(thread, common, [call], false);
        return;
      }
      case 'ToolCallPart': {
        // A streamed piece of the last call's arguments.
        const last = thread.response?.blocks.at(-1);
        const piece = str(payload.arguments_part) ?? '';
        if (last?.type === 'tool_call') {
          last.input = parseJsonLoose(`${typeof last.input === 'string' ? last.input : JSON.stringify(last.input)}${piece}`);
          builder.ignoredLines++;
        } else builder.issue(lineNo, 'a ToolCallPart with no call before it in the step; skipped');
        return;
      }
      case 'StatusUpdate': {
        builder.ignoredLines++;
        const usage = kimiUsage(payload.token_usage);
        if (!usage) return;
        if (thread.response && !thread.response.usage) thread.response.usage = usage;
        else thread.pendingUsage = usage;
        return;
      }
      case 'StepInterrupted':
        builder.ignoredLines++;
        if (thread.response) thread.response.flags = { ...thread.response.flags, aborted: true };
        return;
      case 'ToolResult':
        this.result(thread, payload, common);
        return;
      case 'CompactionEnd':
        thread.response = undefined;
        builder.push({ ...common, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '' }], marker: { source: 'kimi.compaction' } });
        return;
      case 'SubagentEvent':
        this.subagent(payload, lineNo, timestamp);
        return;
      default:
        if (WIRE_METADATA.has(type)) {
          builder.ignoredLines++;
          return;
        }
        builder.issue(lineNo, `wire message type ${JSON.stringify(type)} is not one Foldlab knows (payload keys: ${Object.keys(payload).slice(0, 6).join(', ') || 'none'}); skipped`, 'unsupported');
    }
  }

  /** Adds blocks to the step's response, starting it when this is its first part. */
  private append(thread: WireThread, common: Common, blocks: Block[], merge: boolean): void {
    let entry = thread.response;
    if (!entry || thread.builder.entries.at(-1) !== entry) {
      entry = thread.builder.push({ ...common, role: 'assistant', kind: 'message', blocks: [] });
      thread.response = entry;
      if (thread.pendingUsage) {
        entry.usage = thread.pendingUsage;
        thread.pendingUsage = undefined;
      }
    } else if (common.line > entry.line) entry.lineEnd = common.line;
    for (const block of blocks) {
      const last = entry.blocks.at(-1);
      // Streamed pieces of one text or thought arrive as parts of the same type: one block.
      if (merge && last && last.type === block.type && (block.type === 'text' || block.type === 'thinking') && (last.type === 'text' || last.type === 'thinking')) last.text += block.text;
      else entry.blocks.push(block);
    }
  }

  private result(thread: WireThread, payload: Record<string, unknown>, common: Common): void {
    thread.response = undefined;
    const value = isRecord(payload.return_value) ? payload.return_value : {};
    const output = value.output;
    const content: Array<TextBlock | ImageBlock> = typeof output === 'string' ? (output ? [{ type: 'text', text: output }] : []) : parts(output).filter((block): block is TextBlock | ImageBlock => block.type === 'text' || block.type === 'image');
    const message = str(value.message);
    if (content.length === 0 && message) content.push({ type: 'text', text: message });
    thread.builder.push({ ...common, role: 'tool', kind: 'message', blocks: [{ type: 'tool_result', callId: str(payload.tool_call_id) ?? `l${common.line}`, content, isError: value.is_error === true }] });
  }

  private subagent(payload: Record<string, unknown>, lineNo: number, timestamp: number | undefined): void {
    this.main.builder.lines++;
    const parentCall = str(payload.parent_tool_call_id) ?? str(payload.task_tool_call_id);
    const key = str(payload.agent_id) ?? parentCall;
    if (key === undefined || !isRecord(payload.event)) {
      this.main.builder.issue(lineNo, 'a SubagentEvent without an agent id or call, or without its event; skipped');
      return;
    }
    let thread = this.threads.get(key);
    if (!thread) {
      const type = str(payload.subagent_type);
      thread = new WireThread({ agentId: key, ...(parentCall ? { parentToolUseId: parentCall } : {}), ...(type ? { agentType: type } : {}) });
      this.threads.set(key, thread);
    }
    this.wire(thread, payload.event, lineNo, timestamp, false);
  }

  private threadResult(thread: WireThread): ImportResult {
    const link: SubagentLink = { ...thread.link };
    const sessionId = this.main.builder.meta.sessionId;
    if (sessionId) link.parentSessionId = sessionId;
    const result = thread.builder.result();
    result.issues = [];
    result.ignoredLines = 0;
    result.issueCount = 0;
    result.blankLines = 0;
    result.meta = { ...(sessionId ? { sessionId } : {}), ...(link.agentType ? { title: `${link.agentType} subagent` } : {}), subagent: link };
    return result;
  }

  // ---- context.jsonl --------------------------------------------------------------------------

  private context(value: Record<string, unknown>, lineNo: number): void {
    const builder = this.main.builder;
    const role = value.role as string;
    const common = { line: lineNo, sourceType: role };
    const push = (draft: EntryDraft) => builder.push(draft);
    const usageBefore = this.usageBefore;
    const usageResponse = this.usageResponse;
    this.usageBefore = undefined;
    this.usageResponse = undefined;
    switch (role) {
      case '_system_prompt':
        push({ ...common, role: 'system', kind: 'message', blocks: parts(value.content) });
        return;
      case '_usage': {
        builder.ignoredLines++;
        const count = num(value.token_count);
        if (count === undefined) return;
        if (usageResponse && count >= usageResponse.input) usageResponse.entry.usage = { input: usageResponse.input, output: count - usageResponse.input };
        else this.usageBefore = count;
        return;
      }
      case '_checkpoint':
        builder.ignoredLines++;
        return;
      case 'system':
      case 'user': {
        const blocks = parts(value.content);
        // Kimi's own notes to the model (`<system>CHECKPOINT 3</system>`) are not the user's words.
        const injected = role === 'system' || (blocks.length > 0 && blocks.every((block) => block.type === 'text' && /^<system>[\s\S]*<\/system>$/.test(block.text.trim())));
        push({ ...common, role: role === 'system' ? 'system' : 'user', kind: 'message', blocks, ...(injected && role === 'user' ? { flags: { injected: true } } : {}) });
        return;
      }
      case 'assistant': {
        const blocks = parts(value.content);
        for (const call of Array.isArray(value.tool_calls) ? value.tool_calls : []) {
          if (!isRecord(call)) continue;
          const fn = isRecord(call.function) ? call.function : {};
          const args = str(fn.arguments);
          blocks.push({ type: 'tool_call', callId: str(call.id) ?? `l${lineNo}`, name: str(fn.name) ?? 'unknown', input: args === undefined ? {} : parseJsonLoose(args) });
        }
        const entry = push({ ...common, role: 'assistant', kind: 'message', blocks });
        if (usageBefore !== undefined) this.usageResponse = { entry, input: usageBefore };
        return;
      }
      case 'tool': {
        const content = parts(value.content).filter((block): block is TextBlock | ImageBlock => block.type === 'text' || block.type === 'image');
        const first = content[0];
        const isError = first?.type === 'text' && first.text.startsWith('<system>ERROR:');
        push({ ...common, role: 'tool', kind: 'message', blocks: [{ type: 'tool_result', callId: str(value.tool_call_id) ?? `l${lineNo}`, content, isError }] });
        return;
      }
      default:
        builder.issue(lineNo, `context record role ${JSON.stringify(role)} is not one Foldlab knows (user, assistant, tool, system, _system_prompt, _usage, _checkpoint); skipped`, 'unsupported');
    }
  }
}

/** Kimi content: a string, or parts `{type: "text" | "think" | "image_url" | "audio_url" | "video_url"}`. */
function parts(content: unknown): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const out: Block[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (typeof part === 'string') {
      if (part) out.push({ type: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) continue;
    switch (part.type) {
      case 'think': {
        const block: ThinkingBlock = { type: 'thinking', text: str(part.think) ?? '' };
        const encrypted = str(part.encrypted);
        if (encrypted) block.signature = encrypted;
        out.push(block);
        break;
      }
      case 'image_url':
        out.push(imageFromUrl(isRecord(part.image_url) ? (str(part.image_url.url) ?? '') : ''));
        break;
      case 'audio_url':
      case 'video_url':
        out.push({ type: 'text', text: `[${part.type === 'audio_url' ? 'audio' : 'video'}]` });
        break;
      default: {
        // A text part, or a part of a kind Foldlab does not read: kept as a named stand-in.
        const text = str(part.text);
        if (text) out.push({ type: 'text', text });
        else if (part.type !== 'text') out.push({ type: 'text', text: `[${str(part.type) ?? 'part'}]` });
      }
    }
  }
  return out;
}

/** A step's `token_usage`: `input_other` excludes the cache, so the prompt is the sum of the three. */
function kimiUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const other = num(raw.input_other);
  const output = num(raw.output);
  if (other === undefined && output === undefined) return undefined;
  const cacheRead = num(raw.input_cache_read) ?? 0;
  const cacheWrite = num(raw.input_cache_creation) ?? 0;
  const usage: Usage = { input: (other ?? 0) + cacheRead + cacheWrite, output: output ?? 0 };
  if (cacheRead) usage.cacheRead = cacheRead;
  if (cacheWrite) usage.cacheWrite = cacheWrite;
  return usage;
}
