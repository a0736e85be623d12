/**
 * OpenAI Chat Completions messages (FORMATS.md §4.1): a bare array of `{role, content}` messages,
 * `{messages: [...]}`, or records holding one (tau-bench `traj`, SWE-agent `history`). A document
 * with several conversations becomes one journal with one root per conversation; their entry ids
 * are `c<k>.m<i>` (record k, message i), a single conversation's are `m<i>`.
 *
 * This file also holds the helpers both JSON-document importers share (anthropic.ts uses them):
 * locating the conversations in a document and finding the source line of each message.
 */
import type { Block, ImageBlock, TextBlock, ToolCallBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { EntryBuilder, base64Bytes, describe, imageFromUrl, isRecord, num, parseJsonLoose, str, toEpochMs } from './builder.ts';
import { describeShape, findMessageLists } from './detect.ts';
import { ImportFormatError, type DocumentImporter, type ImportResult } from './types.ts';

// ------------------------------------------------------------------------------------------------
// Shared by the JSON-document importers.

/** A path into a parsed JSON document: array indices and object keys. */
export type JsonPath = ReadonlyArray<string | number>;

/** 1-based first and last line of a JSON value in the source text. */
export interface Span {
  line: number;
  lineEnd: number;
}

const SEP = '\u0001';

/** A string key for a path (the same key `childSpans` uses). */
export function pathKey(path: JsonPath): string {
  let key = '';
  for (const segment of path) key += SEP + String(segment);
  return key;
}

/** The key of `path` + one more segment, from the key of `path`. */
export function childKey(parentKey: string, segment: string | number): string {
  return parentKey + SEP + String(segment);
}

/**
 * Lines of every direct child of the given containers (arrays or objects), keyed by the child's
 * `pathKey`. One pass over the text, O(n): strings are skipped with `indexOf`, and a raw newline
 * can only occur outside strings in valid JSON, so counting them outside strings is exact. Only
 * containers no deeper than the deepest target track their path. Text that does not match the
 * document yields fewer spans, never an error.
 */
export function childSpans(text: string, containers: readonly JsonPath[]): Map<string, Span> {
  const spans = new Map<string, Span>();
  if (containers.length === 0) return spans;
  const targets = new Set(containers.map(pathKey));
  let keyDepth = 0;
  for (const container of containers) keyDepth = Math.max(keyDepth, container.length);

  interface Frame {
    array: boolean;
    /** Path key of this container, or undefined when it is too deep to matter. */
    key: string | undefined;
    target: boolean;
    index: number;
    member: string;
    expectKey: boolean;
    span: Span | undefined;
  }
  const stack: Frame[] = [];
  const n = text.length;
  let line = 1;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 58 /* : */) {
      i++;
      continue;
    }
    if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top) {
        if (top.array) top.index++;
        else top.expectKey = true;
      }
      i++;
      continue;
    }
    if (c === 125 || c === 93 /* } ] */) {
      const frame = stack.pop();
      if (frame?.span) frame.span.lineEnd = line;
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === 34 /* " */ && top && !top.array && top.expectKey) {
      const end = stringEnd(text, i);
      if (top.key !== undefined) {
        const raw = text.slice(i + 1, end - 1);
        top.member = raw.includes('\\') ? String(parseJsonLoose(text.slice(i, end))) : raw;
      }
      top.expectKey = false;
      i = end;
      continue;
    }
    // A value starts here.
    let key: string | undefined;
    let span: Span | undefined;
    if (!top) key = '';
    else if (top.key !== undefined) {
      const child = childKey(top.key, top.array ? top.index : top.member);
      if (top.target) {
        span = { line, lineEnd: line };
        spans.set(child, span);
      }
      if (stack.length <= keyDepth) key = child;
    }
    if (c === 123 || c === 91 /* { [ */) {
      stack.push({ array: c === 91, key, target: key !== undefined && targets.has(key), index: 0, member: '', expectKey: c === 123, span });
      i++;
    } else if (c === 34) {
      i = stringEnd(text, i);
    } else {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9) break;
        i++;
      }
    }
  }
  return spans;
}

/** Index just after the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** One conversation found in a JSON document. */
export interface Conversation {
  messages: unknown[];
  /** Where the list is in the document. */
  path: JsonPath;
  /** The object holding the list (`{system, messages}`, a tau-bench record), when there is one. */
  owner: Record<string, unknown> | undefined;
  ownerPath: JsonPath;
  /** Record index k in an array of records, else 0. */
  record: number;
  /** Entry id prefix: `c<k>.` for records of an array, '' for a single conversation. */
  prefix: string;
}

/** The conversations of a document, in order; throws ImportFormatError when it holds none. */
export function conversationsOf(doc: unknown, expected: string): Conversation[] {
  const lists = findMessageLists(doc);
  if (lists.length === 0) {
    throw new ImportFormatError(`the JSON document is ${describeShape(doc)}, which holds no message list; expected ${expected}`);
  }
  const conversations: Conversation[] = [];
  let from = 0;
  for (const list of lists) {
    if (list === doc) {
      conversations.push({ messages: list, path: [], owner: undefined, ownerPath: [], record: 0, prefix: '' });
    } else if (isRecord(doc)) {
      const key = keyHolding(doc, list);
      if (key !== undefined) conversations.push({ messages: list, path: [key], owner: doc, ownerPath: [], record: 0, prefix: '' });
    } else if (Array.isArray(doc)) {
      // Lists come in record order, so the search resumes where the last one was found: O(records).
      for (let k = from; k < doc.length; k++) {
        const record: unknown = doc[k];
        const key = isRecord(record) ? keyHolding(record, list) : undefined;
        if (key !== undefined && isRecord(record)) {
          conversations.push({ messages: list, path: [k, key], owner: record, ownerPath: [k], record: k, prefix: `c${k}.` });
          from = k + 1;
          break;
        }
      }
    }
  }
  return conversations;
}

function keyHolding(record: Record<string, unknown>, value: unknown): string | undefined {
  for (const key of Object.keys(record)) if (record[key] === value) return key;
  return undefined;
}

/** Where a message is, for issue messages: `message 3` or `conversation 7, message 3`. */
export function messagePlace(conversation: Conversation, many: boolean, index: number): string {
  return many ? `conversation ${conversation.record}, message ${index}` : `message ${index}`;
}

/** Reports each unsupported block or part type once per import (at its first line). */
export class UnsupportedTypes {
  private readonly seen = new Set<string>();
  constructor(private readonly builder: EntryBuilder) {}
  note(line: number, what: string): void {
    if (this.seen.has(what)) return;
    this.seen.add(what);
    this.builder.issue(line, `${what} is not supported; it is shown as a placeholder (later ones are not reported)`, 'unsupported');
  }
}

// ------------------------------------------------------------------------------------------------
// Chat Completions.

const EXPECTED =
  'OpenAI Chat Completions messages: an array of {role, content} objects, an object with a "messages" array, or records holding one (e.g. tau-bench "traj")';

const ROLES = 'system, developer, user, assistant, tool or function';

interface Context {
  builder: EntryBuilder;
  unsupported: UnsupportedTypes;
  line: number;
}

/** Text and image parts of a Chat Completions `content` (string, null, or an array of parts). */
function contentParts(content: unknown, ctx: Context): Array<TextBlock | ImageBlock> {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  const parts = Array.isArray(content) ? content : [content];
  const out: Array<TextBlock | ImageBlock> = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.length > 0) out.push({ type: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) {
      if (part !== null && part !== undefined) out.push({ type: 'text', text: String(part) });
      continue;
    }
    const type = str(part.type) ?? (typeof part.text === 'string' ? 'text' : '');
    switch (type) {
      case 'text':
      case 'input_text':
      case 'output_text':
        out.push({ type: 'text', text: str(part.text) ?? '' });
        break;
      case 'refusal':
        out.push({ type: 'text', text: str(part.refusal) ?? '' });
        break;
      case 'image_url':
      case 'input_image': {
        const ref = part.image_url;
        const url = isRecord(ref) ? str(ref.url) : str(ref);
        if (url !== undefined) out.push(imageFromUrl(url));
        else if (str(part.file_id) !== undefined) out.push({ type: 'image', mediaType: 'image', bytes: 0, source: 'file' });
        else out.push({ type: 'image', mediaType: 'image', bytes: 0, source: 'url' });
        break;
      }
      case 'image': {
        // An Anthropic-style image block in a list detected as Chat Completions: size it, keep no data.
        const source = isRecord(part.source) ? part.source : {};
        const mediaType = str(source.media_type) ?? 'image';
        if (source.type === 'base64') out.push({ type: 'image', mediaType, bytes: base64Bytes(str(source.data) ?? ''), source: 'base64' });
        else if (typeof source.url === 'string') out.push({ ...imageFromUrl(source.url), ...(source.url.startsWith('data:') ? {} : { mediaType }) });
        else out.push({ type: 'image', mediaType, bytes: 0, source: source.type === 'file' ? 'file' : 'url' });
        break;
      }
      case 'input_audio':
        out.push({ type: 'text', text: '[audio]' });
        break;
      case 'file':
      case 'input_file': {
        const file = isRecord(part.file) ? part.file : part;
        const name = str(file.filename);
        out.push({ type: 'text', text: name ? `[file: ${name}]` : '[file]' });
        break;
      }
      default:
        ctx.unsupported.note(ctx.line, `content part type ${JSON.stringify(type)}`);
        out.push({ type: 'text', text: `[${type || 'unknown part'}]` });
    }
  }
  return out;
}

/** Usage as OpenAI reports it (`prompt_tokens` already includes cached tokens). */
function openAiUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.prompt_tokens) ?? num(value.input_tokens);
  const output = num(value.completion_tokens) ?? num(value.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const usage: Usage = { input: input ?? 0, output: output ?? 0 };
  const promptDetails = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : isRecord(value.input_tokens_details) ? value.input_tokens_details : undefined;
  const cached = num(promptDetails?.cached_tokens);
  if (cached !== undefined) usage.cacheRead = cached;
  const outputDetails = isRecord(value.completion_tokens_details) ? value.completion_tokens_details : isRecord(value.output_tokens_details) ? value.output_tokens_details : undefined;
  const reasoning = num(outputDetails?.reasoning_tokens);
  if (reasoning !== undefined) usage.reasoning = reasoning;
  return usage;
}

/** Arguments: a JSON string parsed loosely, an object kept, nothing as `{}`. */
function toolInput(value: unknown): unknown {
  if (typeof value === 'string') return parseJsonLoose(value);
  return value ?? {};
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function importConversation(builder: EntryBuilder, unsupported: UnsupportedTypes, conversation: Conversation, spans: Map<string, Span>, many: boolean): void {
  const listKey = pathKey(conversation.path);
  const k = conversation.record;
  let previous: string | null = null;
  /** Legacy `function_call`s not yet answered by a `function` message, in order. */
  const pendingFunctions: Array<{ id: string; name: string }> = [];
  conversation.messages.forEach((message, i) => {
    builder.lines++;
    const span = spans.get(childKey(listKey, i));
    const line = span?.line ?? 1;
    const place = messagePlace(conversation, many, i);
    if (!isRecord(message)) {
      builder.issue(line, `${place} is ${describe(message)}, not a {role, content} object; skipped`);
      return;
    }
    const role = message.role;
    if (typeof role !== 'string') {
      builder.issue(line, `${place} has no "role" (expected ${ROLES}); skipped`);
      return;
    }
    const ctx: Context = { builder, unsupported, line };
    const blocks: Block[] = [];
    let entryRole: 'system' | 'user' | 'assistant' | 'tool';
    switch (role) {
      case 'system':
      case 'developer':
        entryRole = 'system';
        blocks.push(...contentParts(message.content, ctx));
        break;
      case 'user':
        entryRole = 'user';
        blocks.push(...contentParts(message.content, ctx));
        break;
      case 'assistant': {
        entryRole = 'assistant';
        const reasoning = nonEmpty(message.reasoning_content) ?? nonEmpty(message.reasoning);
        if (reasoning !== undefined) blocks.push({ type: 'thinking', text: reasoning });
        blocks.push(...contentParts(message.content, ctx));
        const refusal = nonEmpty(message.refusal);
        if (refusal !== undefined) blocks.push({ type: 'text', text: refusal });
        if (Array.isArray(message.tool_calls)) {
          message.tool_calls.forEach((call: unknown, j) => {
            if (!isRecord(call)) {
              builder.issue(line, `${place}: tool_calls[${j}] is ${describe(call)}, not an object; skipped`);
              return;
            }
            const fn = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : undefined;
            const block: ToolCallBlock = {
              type: 'tool_call',
              callId: nonEmpty(call.id) ?? `tc-${k}-${i}-${j}`,
              name: str(fn?.name) ?? str(call.name) ?? 'unknown',
              input: toolInput(fn ? (fn.arguments ?? fn.input) : call.arguments),
            };
            blocks.push(block);
          });
        }
        if (isRecord(message.function_call)) {
          const name = str(message.function_call.name) ?? 'unknown';
          const id = `fc-${k}-${i}`;
          blocks.push({ type: 'tool_call', callId: id, name, input: toolInput(message.function_call.arguments) });
          pendingFunctions.push({ id, name });
        }
        break;
      }
      case 'tool': {
        entryRole = 'tool';
        const content = contentParts(message.content, ctx);
        const toolName = str(message.name);
        let ids: string[] = [];
        if (nonEmpty(message.tool_call_id) !== undefined) ids = [message.tool_call_id as string];
        else if (Array.isArray(message.tool_call_ids)) ids = message.tool_call_ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
        if (ids.length === 0) ids = [`tr-${k}-${i}`];
        for (const callId of ids) {
          const block: ToolResultBlock = { type: 'tool_result', callId, content: [...content], isError: false };
          if (toolName !== undefined) block.toolName = toolName;
          blocks.push(block);
        }
        break;
      }
      case 'function': {
        entryRole = 'tool';
        const name = str(message.name);
        let at = -1;
        for (let p = pendingFunctions.length - 1; p >= 0; p--) {
          if (pendingFunctions[p]?.name === name) {
            at = p;
            break;
          }
        }
        if (at === -1) at = pendingFunctions.length - 1;
        const pending = at >= 0 ? pendingFunctions.splice(at, 1)[0] : undefined;
        const block: ToolResultBlock = { type: 'tool_result', callId: pending?.id ?? `fc-${k}-${i}`, content: contentParts(message.content, ctx), isError: false };
        if (name !== undefined) block.toolName = name;
        blocks.push(block);
        break;
      }
      default:
        builder.issue(line, `${place} has unknown role ${JSON.stringify(role)} (expected ${ROLES}); skipped`, 'unsupported');
        return;
    }
    const entry = builder.push({
      id: `${conversation.prefix}m${i}`,
      parentId: previous,
      role: entryRole,
      kind: 'message',
      blocks,
      sourceType: role,
      line,
      ...(span && span.lineEnd > span.line ? { lineEnd: span.lineEnd } : {}),
    });
    const usage = openAiUsage(message.usage);
    if (usage) entry.usage = usage;
    const model = str(message.model);
    if (model !== undefined) entry.model = model;
    const timestamp = toEpochMs(message.timestamp ?? message.created_at);
    if (timestamp !== undefined) entry.timestamp = timestamp;
    // SWE-agent demonstrations are replayed examples, not the user's words (FORMATS.md §7.9).
    if (message.is_demo === true) entry.flags = { injected: true };
    previous = entry.id;
  });
}

export const openAiChatImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    const conversations = conversationsOf(doc, EXPECTED);
    const builder = new EntryBuilder('openai-chat');
    const unsupported = new UnsupportedTypes(builder);
    const spans = childSpans(text, conversations.map((conversation) => conversation.path));
    const many = conversations.some((conversation) => conversation.prefix !== '');
    for (const conversation of conversations) importConversation(builder, unsupported, conversation, spans, many);
    if (isRecord(doc)) {
      const model = str(doc.model);
      if (model !== undefined) builder.meta.model = model;
    }
    return builder.result();
  },
};
