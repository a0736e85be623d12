/**
 * What the JSON-document importers (openai-chat.ts, anthropic.ts) share: locating the
 * conversations in a parsed document, finding the source lines of each message in the text, and
 * reporting unsupported block types once.
 */
import { EntryBuilder, isRecord, parseJsonLoose } from './builder.ts';
import { describeShape, findMessageLists } from './detect.ts';
import { ImportFormatError } from './types.ts';


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
