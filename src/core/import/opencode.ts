/**
 * opencode sessions (docs/formats.md, opencode): the document `opencode export <session>` prints,
 * `{info: Session, messages: [{info: Message, parts: Part[]}]}`, which is also what Foldlab
 * assembles from an opencode storage folder (opencode-folder.ts); also a session's messages alone,
 * `[{info, parts}]`, as opencode's server lists them (`GET /session/:id/message`).
 *
 * Decisions, following how opencode turns its messages back into model messages
 * (`session/message-v2.ts`, `toModelMessages`):
 * - A user message is its text parts (ignored ones left out; all-synthetic text is injected) and
 *   files; a message holding only a `compaction` part is the request for a summary, a harness event.
 * - An assistant message is one entry per step (`step-start` ... `step-finish`): its reasoning as
 *   thinking, text, tool calls, with the step's tokens as the call's usage; then each tool part's
 *   result (`completed`: its output, or "[Old tool result content cleared]" once compacted; `error`:
 *   its error; `pending`/`running`: "[Tool execution was interrupted]", as opencode sends it).
 * - An assistant message with `summary: true` is opencode's compaction summary: a compaction marker.
 * - The session's `parentID` makes it a subagent of that session; a `task` tool part naming a
 *   child session (`state.metadata.sessionId`) records which call started it.
 * - A part type not listed here is reported by line (its message's) and type, and skipped.
 */
import type { Block, EntryFlags, ImageBlock, TextBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { EntryBuilder, describe, imageFromUrl, isRecord, num, str, toEpochMs, type EntryDraft } from './builder.ts';
import { describeShape, isOpencodeExport, isOpencodeListedMessage, isOpencodeMessageList } from './detect.ts';
import { childKey, childSpans, pathKey } from './json-document.ts';
import { ImportFormatError, type DocumentImporter, type ImportResult } from './types.ts';

/** Parts that carry nothing the model sees (checkpoints, diffs, retries, agent mentions). */
const QUIET_PARTS = new Set(['step-start', 'snapshot', 'patch', 'retry', 'agent']);

/** Reports each part type Foldlab does not read once, at its first line. */
class UnreadParts {
  private readonly seen = new Set<string>();
  constructor(private readonly builder: EntryBuilder) {}
  note(line: number, what: string, messageId: string): void {
    if (this.seen.has(what)) return;
    this.seen.add(what);
    this.builder.issue(line, `${what} (first in message ${messageId}) is not read; those parts are skipped (later ones are not reported)`, 'unsupported');
  }
}

interface Context {
  builder: EntryBuilder;
  unsupported: UnreadParts;
  line: number;
  lineEnd: number | undefined;
  messageId: string;
  parent: string | null;
  timestamp: number | undefined;
}

/** opencode's stored tokens: `input` without the cache; `total` (when kept) holds everything. */
function opencodeUsage(tokens: unknown): Usage | undefined {
  if (!isRecord(tokens)) return undefined;
  const cache = isRecord(tokens.cache) ? tokens.cache : {};
  const cacheRead = num(cache.read) ?? 0;
  const cacheWrite = num(cache.write) ?? 0;
  const input = (num(tokens.input) ?? 0) + cacheRead + cacheWrite;
  const reasoning = num(tokens.reasoning) ?? 0;
  const total = num(tokens.total);
  // Newer versions store output without reasoning and a total of all; older ones output with it and no total.
  const output = total !== undefined && total >= input ? total - input : (num(tokens.output) ?? 0);
  if (input === 0 && output === 0) return undefined;
  const usage: Usage = { input, output };
  if (cacheRead) usage.cacheRead = cacheRead;
  if (cacheWrite) usage.cacheWrite = cacheWrite;
  if (reasoning) usage.reasoning = reasoning;
  return usage;
}

function push(ctx: Context, draft: Omit<EntryDraft, 'line' | 'parentId'>): string {
  const entry = ctx.builder.push({ ...draft, line: ctx.line, ...(ctx.lineEnd !== undefined ? { lineEnd: ctx.lineEnd } : {}), parentId: ctx.parent, ...(ctx.timestamp !== undefined ? { timestamp: ctx.timestamp } : {}) });
  ctx.parent = entry.id;
  return entry.id;
}

function filePart(part: Record<string, unknown>): TextBlock | ImageBlock | undefined {
  const mime = str(part.mime) ?? '';
  // text/plain files and directories reach the model as synthetic text parts.
  if (mime === 'text/plain' || mime === 'application/x-directory') return undefined;
  if (mime.startsWith('image/')) return { ...imageFromUrl(str(part.url) ?? ''), mediaType: mime };
  return { type: 'text', text: `[file: ${str(part.filename) ?? mime}]` };
}

function userMessage(ctx: Context, parts: Record<string, unknown>[]): void {
  const blocks: Block[] = [];
  let synthetic = 0;
  let texts = 0;
  let compaction = false;
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        if (part.ignored === true) break;
        texts++;
        if (part.synthetic === true) synthetic++;
        blocks.push({ type: 'text', text: str(part.text) ?? '' });
        break;
      case 'file': {
        const block = filePart(part);
        if (block) blocks.push(block);
        break;
      }
      case 'compaction':
        compaction = true;
        break;
      case 'subtask':
        blocks.push({ type: 'text', text: `[subtask for ${str(part.agent) ?? 'an agent'}] ${str(part.prompt) ?? ''}` });
        break;
      default:
        if (!QUIET_PARTS.has(String(part.type))) ctx.unsupported.note(ctx.line, `user part type ${JSON.stringify(part.type)}`, ctx.messageId);
    }
  }
  if (compaction && blocks.length === 0) {
    push(ctx, { id: ctx.messageId, role: 'user', kind: 'event', blocks: [{ type: 'text', text: '[compaction requested]' }], sourceType: 'user/compaction' });
    return;
  }
  const flags: EntryFlags | undefined = texts > 0 && synthetic === texts ? { injected: true } : undefined;
  push(ctx, { id: ctx.messageId, role: 'user', kind: 'message', blocks, sourceType: 'user', ...(flags ? { flags } : {}) });
}

function toolResult(part: Record<string, unknown>, callId: string): ToolResultBlock {
  const state = isRecord(part.state) ? part.state : {};
  const time = isRecord(state.time) ? state.time : {};
  let text: string;
  let isError = false;
  if (state.status === 'completed') text = num(time.compacted) !== undefined ? '[Old tool result content cleared]' : (str(state.output) ?? '');
  else if (state.status === 'error') {
    text = str(state.error) ?? '';
    isError = true;
  } else {
    text = '[Tool execution was interrupted]';
    isError = true;
  }
  const block: ToolResultBlock = { type: 'tool_result', callId, content: text ? [{ type: 'text', text }] : [], isError };
  const name = str(part.tool);
  if (name) block.toolName = name;
  return block;
}

function assistantMessage(ctx: Context, info: Record<string, unknown>, parts: Record<string, unknown>[]): void {
  const model = str(info.modelID);
  if (model) ctx.builder.meta.model ??= model;
  if (info.summary === true) {
    const text = parts.filter((part) => part.type === 'text').map((part) => str(part.text) ?? '').join('\n');
    push(ctx, { id: ctx.messageId, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text }], sourceType: 'assistant/summary', marker: { source: 'opencode.compaction' } });
    return;
  }
  const error = isRecord(info.error) ? str(info.error.name) : undefined;
  const flags: EntryFlags | undefined = error === 'MessageAbortedError' ? { aborted: true } : error !== undefined ? { error: true } : undefined;
  let step = 0;
  let blocks: Block[] = [];
  let results: Array<{ part: Record<string, unknown>; callId: string }> = [];
  let stepUsage: Usage | undefined;
  let stepsWithUsage = 0;
  const flush = (usage: Usage | undefined) => {
    if (blocks.length === 0 && results.length === 0) return;
    const id = step === 0 ? ctx.messageId : `${ctx.messageId}.s${step}`;
    push(ctx, { id, role: 'assistant', kind: 'message', blocks, sourceType: 'assistant', ...(flags ? { flags } : {}) });
    const entry = ctx.builder.entries[ctx.builder.entries.length - 1]!;
    if (model) entry.model = model;
    if (usage) entry.usage = usage;
    for (const { part, callId } of results) push(ctx, { id: `${ctx.messageId}/${callId}`, role: 'tool', kind: 'message', blocks: [toolResult(part, callId)], sourceType: 'tool' });
    step++;
    blocks = [];
    results = [];
  };
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        blocks.push({ type: 'text', text: str(part.text) ?? '' });
        break;
      case 'reasoning':
        blocks.push({ type: 'thinking', text: str(part.text) ?? '' });
        break;
      case 'file': {
        const block = filePart(part);
        if (block) blocks.push(block);
        break;
      }
      case 'tool': {
        const callId = str(part.callID) ?? `${ctx.messageId}.t${results.length}`;
        const state = isRecord(part.state) ? part.state : {};
        blocks.push({ type: 'tool_call', callId, name: str(part.tool) ?? 'unknown', input: state.input ?? {} });
        results.push({ part, callId });
        const child = isRecord(state.metadata) ? str(state.metadata.sessionId) : undefined;
        if (part.tool === 'task' && child) (ctx.builder.meta.subagentCalls ??= {})[child] = callId;
        break;
      }
      case 'step-finish':
        stepUsage = opencodeUsage(part.tokens);
        if (stepUsage) stepsWithUsage++;
        flush(stepUsage);
        break;
      default:
        if (!QUIET_PARTS.has(String(part.type))) ctx.unsupported.note(ctx.line, `assistant part type ${JSON.stringify(part.type)}`, ctx.messageId);
    }
  }
  // A step cut off before its step-finish: the message's own tokens when no step recorded any.
  flush(stepsWithUsage === 0 ? opencodeUsage(info.tokens) : undefined);
}

export const opencodeImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    const list = isOpencodeMessageList(doc);
    if (!list && (!isOpencodeExport(doc) || !isRecord(doc))) {
      throw new ImportFormatError(`the JSON document is ${describeShape(doc)}, not an opencode session; expected {info, messages: [{info, parts}]} as "opencode export" prints it, or the [{info, parts}] list of a session's messages`);
    }
    const messages = (list ? doc : (doc as Record<string, unknown>).messages) as unknown[];
    const builder = new EntryBuilder('opencode');
    const unsupported = new UnreadParts(builder);
    // A message list names its session in every message; the export's info holds the rest.
    const session = list ? { id: messages.find(isOpencodeListedMessage)?.info.sessionID } : ((doc as Record<string, unknown>).info as Record<string, unknown>);
    const meta = builder.meta;
    const sessionId = str(session.id);
    if (sessionId) meta.sessionId = sessionId;
    const title = str(session.title);
    if (title) meta.title = title;
    const version = str(session.version);
    if (version) meta.version = version;
    const directory = str(session.directory);
    if (directory) meta.cwd = directory;
    const created = isRecord(session.time) ? toEpochMs(session.time.created) : undefined;
    if (created !== undefined) meta.createdAt = created;
    const parentId = str(session.parentID);
    if (parentId) meta.subagent = { parentSessionId: parentId, ...(sessionId ? { agentId: sessionId } : {}) };
    const listPath = list ? [] : ['messages'];
    const spans = childSpans(text, [listPath]);
    const listKey = pathKey(listPath);
    const ctx: Context = { builder, unsupported, line: 1, lineEnd: undefined, messageId: '', parent: null, timestamp: undefined };
    messages.forEach((message, i) => {
      builder.lines++;
      const span = spans.get(childKey(listKey, i));
      ctx.line = span?.line ?? 1;
      ctx.lineEnd = span && span.lineEnd > span.line ? span.lineEnd : undefined;
      const info = isRecord(message) && isRecord(message.info) ? message.info : undefined;
      const parts = isRecord(message) && Array.isArray(message.parts) ? message.parts.filter(isRecord) : undefined;
      if (!info || !parts) {
        builder.issue(ctx.line, `messages[${i}] is ${isRecord(message) ? 'not {info, parts}' : describe(message)}; skipped`);
        return;
      }
      ctx.messageId = str(info.id) ?? `m${i}`;
      const time = isRecord(info.time) ? info.time : {};
      ctx.timestamp = toEpochMs(time.created);
      if (info.role === 'user') userMessage(ctx, parts);
      else if (info.role === 'assistant') assistantMessage(ctx, info, parts);
      else builder.issue(ctx.line, `messages[${i}] has role ${JSON.stringify(info.role)} (expected user or assistant); skipped`, 'unsupported');
    });
    return builder.result();
  },
};
