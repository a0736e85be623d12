/**
 * Gemini CLI chat records (docs/formats.md, Gemini CLI): `~/.gemini/tmp/<project>/chats/session-*.json`
 * (one document `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`) and the newer
 * `session-*.jsonl` (a metadata line, then one record per line: a message, a message written again
 * with its tool results or tokens, `{"$set": {...}}` metadata updates, `{"$rewindTo": id}`).
 *
 * Decisions, following how the CLI reads its own files back:
 * - A message written again under the same id replaces the earlier copy in place (the last copy has
 *   the tool results and tokens); its entry spans both lines.
 * - `$rewindTo` drops that message and every later one from the conversation; the next message
 *   starts a branch from the one before it, so what was rewound stays as a side branch.
 * - The file streams: once more than twice `OPEN_MESSAGES` messages wait, the older ones are written
 *   as entries (the CLI only writes the newest messages again), so the end of a 200 MB file is short
 *   work. A copy of a message that far back is reported and the earlier copy kept.
 * - A `user` message is the user's text (and pasted images); a `gemini` message is one model
 *   response: its `thoughts` (subject and description) as thinking, its text, its `toolCalls`; each
 *   call with a recorded `result` adds a tool-result entry right after it (status `error` marks it
 *   an error). `info`, `warning` and `error` messages are harness events.
 * - `tokens` is the response's usage: `input` (the prompt, cached tokens included, plus `tool`),
 *   `output` plus `thoughts` (reasoning is output), `cached` as cache reads; all zeros is no usage.
 * - A record that is none of these, or a message of another type, is reported by line and skipped.
 */
import type { Block, Entry, EntryFlags, ImageBlock, TextBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { base64Bytes, EntryBuilder, describe, isRecord, num, str, toEpochMs, type EntryDraft } from './builder.ts';
import { describeShape } from './detect.ts';
import { childKey, childSpans, pathKey } from './json-document.ts';
import { ImportFormatError, type DocumentImporter, type ImportResult, type LineImporter } from './types.ts';

const TYPES = 'user, gemini, info, warning or error';
const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error']);

/**
 * Messages kept open to be written again before their entries are built. Default 1,000; unit:
 * messages. Gemini CLI writes a message again only while it is among the newest (its tool results,
 * its tokens), so a thousand is far more than a real file needs and bounds the work left to the end.
 */
export const OPEN_MESSAGES = 1_000;

interface Stored {
  id: string;
  record: Record<string, unknown>;
  line: number;
  lineEnd: number;
  /** Index in `stored` of the message this one follows, or -1 at a root. */
  parent: number;
}

export function createGeminiCliImporter(): LineImporter {
  return new GeminiCliImporter();
}

class GeminiCliImporter implements LineImporter {
  private readonly builder = new EntryBuilder('gemini-cli');
  private readonly stored: Stored[] = [];
  /** Message id -> index in `stored`, for the messages not rewound. */
  private readonly live = new Map<string, number>();
  /** Indices in `stored` of the live messages, in conversation order. */
  private order: number[] = [];
  /** `stored[0, written)` have their entries built; `tails[i]` is the last entry id message i produced. */
  private written = 0;
  private readonly tails: Array<string | null> = [];

  line(value: Record<string, unknown>, lineNo: number): void {
    this.builder.lines++;
    if (typeof value.$rewindTo === 'string') {
      this.rewind(value.$rewindTo);
      this.builder.ignoredLines++;
      return;
    }
    if (isRecord(value.$set)) {
      this.metadata(value.$set, lineNo);
      this.builder.ignoredLines++;
      return;
    }
    if (typeof value.id === 'string' && typeof value.type === 'string') {
      this.message(value, lineNo);
      return;
    }
    if (typeof value.sessionId === 'string') {
      this.metadata(value, lineNo);
      this.builder.ignoredLines++;
      return;
    }
    this.builder.issue(lineNo, `a record with keys ${describeShape(value).replace('an object with keys ', '')} is not a Gemini CLI message, metadata, "$set" or "$rewindTo" record; skipped`, 'unsupported');
  }

  /** Adds a document's messages, each at its own line. */
  messageAt(value: unknown, lineNo: number, place: string): void {
    this.builder.lines++;
    if (!isRecord(value) || typeof value.id !== 'string' || typeof value.type !== 'string') {
      this.builder.issue(lineNo, `${place} is ${isRecord(value) ? 'a message without a string "id" and "type"' : describe(value)}; skipped`);
      return;
    }
    this.message(value, lineNo);
  }

  finish(): ImportResult {
    this.writeUpTo(this.stored.length);
    return this.builder.result();
  }

  /** Entries of the stored messages before `end` (a parent always comes before its children). */
  private writeUpTo(end: number): void {
    for (; this.written < end; this.written++) {
      const message = this.stored[this.written]!;
      const parent = message.parent < 0 ? null : (this.tails[message.parent] ?? null);
      this.tails[this.written] = this.entries(message, parent);
      // Only the type is read again (a later copy's check); the content is released.
      message.record = { type: message.record.type };
    }
  }

  private metadata(value: Record<string, unknown>, lineNo: number): void {
    const meta = this.builder.meta;
    const id = str(value.sessionId);
    if (id) meta.sessionId = id;
    const summary = str(value.summary);
    if (summary) meta.title = summary;
    const started = toEpochMs(value.startTime);
    if (started !== undefined) meta.createdAt = started;
    if (Array.isArray(value.messages)) {
      // A whole record on one line (the legacy file) or a checkpoint: each message in order.
      value.messages.forEach((message: unknown, i) => {
        if (isRecord(message) && typeof message.id === 'string' && typeof message.type === 'string') this.message(message, lineNo);
        else this.builder.issue(lineNo, `messages[${i}] is ${isRecord(message) ? 'a message without a string "id" and "type"' : describe(message)}; skipped`);
      });
    }
  }

  private message(value: Record<string, unknown>, lineNo: number): void {
    const id = value.id as string;
    const at = this.live.get(id);
    const existing = at === undefined ? undefined : this.stored[at];
    if (existing) {
      // A copy of another type than the one it rewrites is damaged: reported, the earlier copy kept.
      if (value.type !== existing.record.type && !MESSAGE_TYPES.has(String(value.type))) {
        this.builder.issue(lineNo, `message ${JSON.stringify(id)} is written again with type ${JSON.stringify(value.type)} (expected ${TYPES}); the copy on line ${existing.lineEnd} is kept`, 'unsupported');
        return;
      }
      if (at! < this.written) {
        this.builder.issue(lineNo, `message ${JSON.stringify(id)} is written again more than ${OPEN_MESSAGES} messages after it, when its entries are already built; the copy on line ${existing.lineEnd} is kept`, 'unsupported');
        return;
      }
      existing.record = value;
      existing.lineEnd = lineNo;
      return;
    }
    const last = this.order[this.order.length - 1];
    this.stored.push({ id, record: value, line: lineNo, lineEnd: lineNo, parent: last ?? -1 });
    this.live.set(id, this.stored.length - 1);
    this.order.push(this.stored.length - 1);
    if (this.stored.length - this.written > 2 * OPEN_MESSAGES) this.writeUpTo(this.stored.length - OPEN_MESSAGES);
  }

  private rewind(id: string): void {
    const position = this.order.findIndex((index) => this.stored[index]?.id === id);
    const dropped = position < 0 ? this.order : this.order.slice(position);
    for (const index of dropped) {
      const message = this.stored[index];
      if (message) this.live.delete(message.id);
    }
    this.order = position < 0 ? [] : this.order.slice(0, position);
  }

  /** Writes a message's entries under `parent`; returns the id of the last one (or `parent` when none). */
  private entries(message: Stored, parent: string | null): string | null {
    const { record, line } = message;
    const type = record.type as string;
    const common = { line, ...(message.lineEnd > line ? { lineEnd: message.lineEnd } : {}), sourceType: type };
    const timestamp = toEpochMs(record.timestamp);
    const push = (draft: EntryDraft): Entry => {
      if (timestamp !== undefined) draft.timestamp ??= timestamp;
      return this.builder.push(draft);
    };
    switch (type) {
      case 'user':
        return push({ ...common, id: message.id, parentId: parent, role: 'user', kind: 'message', blocks: parts(record.content) }).id;
      case 'info':
      case 'warning':
      case 'error': {
        const flags: EntryFlags | undefined = type === 'error' ? { error: true } : undefined;
        const blocks = parts(record.content).map((block) => (block.type === 'text' ? { ...block, text: `[${type}] ${block.text}` } : block));
        return push({ ...common, id: message.id, parentId: parent, role: 'system', kind: 'event', blocks, ...(flags ? { flags } : {}) }).id;
      }
      case 'gemini':
        return this.response(message, parent, common, push);
      default:
        this.builder.issue(line, `message ${JSON.stringify(message.id)} has type ${JSON.stringify(type)} (expected ${TYPES}); skipped`, 'unsupported');
        return parent;
    }
  }

  private response(message: Stored, parent: string | null, common: { line: number; lineEnd?: number; sourceType: string }, push: (draft: EntryDraft) => Entry): string {
    const { record } = message;
    const blocks: Block[] = [];
    if (Array.isArray(record.thoughts)) {
      for (const thought of record.thoughts) {
        if (!isRecord(thought)) continue;
        const text = [str(thought.subject), str(thought.description)].filter((part) => part).join('\n');
        if (text) blocks.push({ type: 'thinking', text });
      }
    }
    blocks.push(...parts(record.content));
    const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
    calls.forEach((call, j) => {
      blocks.push({ type: 'tool_call', callId: str(call.id) ?? `${message.id}.c${j}`, name: str(call.name) ?? 'unknown', input: call.args ?? {} });
    });
    const entry = push({ ...common, id: message.id, parentId: parent, role: 'assistant', kind: 'message', blocks });
    const model = str(record.model);
    if (model) {
      entry.model = model;
      this.builder.meta.model ??= model;
    }
    const usage = geminiUsage(record.tokens);
    if (usage) entry.usage = usage;
    let tail = entry.id;
    calls.forEach((call, j) => {
      if (call.result === undefined || call.result === null) return;
      const callId = str(call.id) ?? `${message.id}.c${j}`;
      const block: ToolResultBlock = { type: 'tool_result', callId, content: resultParts(call.result), isError: call.status === 'error' };
      const name = str(call.name);
      if (name) block.toolName = name;
      const timestamp = toEpochMs(call.timestamp);
      tail = push({ ...common, id: `${message.id}/${callId}`, parentId: tail, role: 'tool', kind: 'message', blocks: [block], sourceType: 'gemini/toolCall', ...(timestamp !== undefined ? { timestamp } : {}) }).id;
    });
    return tail;
  }
}

/** Usage of one response from its `tokens` summary. */
function geminiUsage(tokens: unknown): Usage | undefined {
  if (!isRecord(tokens)) return undefined;
  const input = num(tokens.input);
  const output = num(tokens.output);
  if (input === undefined && output === undefined) return undefined;
  const thoughts = num(tokens.thoughts) ?? 0;
  const usage: Usage = { input: (input ?? 0) + (num(tokens.tool) ?? 0), output: (output ?? 0) + thoughts };
  // All zeros is no record (the CLI writes them when a response's usage did not reach it), not a free call.
  if (usage.input === 0 && usage.output === 0) return undefined;
  const cached = num(tokens.cached);
  if (cached) usage.cacheRead = cached;
  if (thoughts > 0) usage.reasoning = thoughts;
  return usage;
}

/** Text and image blocks of a Gemini `PartListUnion` (a string, a part, or a list of them). */
function parts(content: unknown): Array<TextBlock | ImageBlock> {
  const out: Array<TextBlock | ImageBlock> = [];
  for (const part of Array.isArray(content) ? content : [content]) {
    if (typeof part === 'string') {
      if (part) out.push({ type: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) continue;
    const text = str(part.text);
    if (text) out.push({ type: 'text', text });
    const inline = isRecord(part.inlineData) ? part.inlineData : undefined;
    if (inline) out.push({ type: 'image', mediaType: str(inline.mimeType) ?? 'image', bytes: base64Bytes(str(inline.data) ?? ''), source: 'base64' });
    if (isRecord(part.fileData)) out.push({ type: 'image', mediaType: str(part.fileData.mimeType) ?? 'image', bytes: 0, source: 'file' });
  }
  return out;
}

/** A call's recorded result: each `functionResponse`'s output (or error), then any other parts. */
function resultParts(result: unknown): Array<TextBlock | ImageBlock> {
  const out: Array<TextBlock | ImageBlock> = [];
  for (const part of Array.isArray(result) ? result : [result]) {
    const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
    if (response === undefined) {
      out.push(...parts(part));
      continue;
    }
    const text = isRecord(response) ? (str(response.output) ?? str(response.error) ?? JSON.stringify(response)) : String(response);
    if (text) out.push({ type: 'text', text });
  }
  return out;
}

/** The document form: the record's metadata, then each message at its own line. */
export const geminiCliDocumentImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    if (!isRecord(doc) || !Array.isArray(doc.messages)) {
      throw new ImportFormatError(`the JSON document is ${describeShape(doc)}, not a Gemini CLI chat; expected {sessionId, projectHash, messages: [{id, type, content, ...}]}`);
    }
    const importer = new GeminiCliImporter();
    const { messages, ...meta } = doc;
    importer.line(meta, 1);
    const spans = childSpans(text, [['messages']]);
    const listKey = pathKey(['messages']);
    messages.forEach((message: unknown, i) => importer.messageAt(message, spans.get(childKey(listKey, i))?.line ?? 1, `messages[${i}]`));
    return importer.finish();
  },
};
