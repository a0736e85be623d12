/**
 * Import time of the agents' JSON-document formats (part of section 2): each document sample's
 * event or message list repeated with fresh ids into one document of ~100 MB, then imported whole
 * as the page's worker imports a JSON document (the text parsed at once, then read). A document
 * cannot be streamed line by line, so the figure that says whether the page stays responsive is
 * that this runs in the worker: the whole import is the one long task, and it never reaches the page.
 */
import { readFileSync } from 'node:fs';
import { importText } from '../src/core/import/run.ts';
import { duration, fmt, mb, printTable } from './report.ts';

/** Size of each generated document. Default 100,000,000 (`BENCH_DOCUMENT_BYTES` overrides). Unit: bytes (approximate). */
export const DOCUMENT_IMPORT_BYTES = Number(process.env.BENCH_DOCUMENT_BYTES ?? 100_000_000);

interface DocumentSample {
  format: string;
  path: string;
  /** The list repeated: the document itself, or its `messages`. */
  list: 'document' | 'messages';
}

/** One sample per JSON-document agent format. */
export const DOCUMENT_SAMPLES: readonly DocumentSample[] = [
  { format: 'openhands', path: 'public/samples/openhands/basic_gui_mode.json', list: 'document' },
  { format: 'gemini-cli (JSON)', path: 'public/samples/gemini-cli/pomodoro-timer.json', list: 'messages' },
  { format: 'opencode (message list)', path: 'public/samples/opencode/sandbox-agent-messages.json', list: 'document' },
  { format: 'cline (history)', path: 'public/samples/cline/1764201600000/api_conversation_history.json', list: 'document' },
];

/** Keys whose string values are ids, suffixed per copy; OpenHands' numeric event ids and causes are offset. */
const STRING_IDS = new Set(['id', 'tool_call_id', 'tool_use_id', 'toolCallId', 'callID', 'messageID', 'parentID']);
const NUMBER_IDS = new Set(['id', 'cause']);
const NUMBER_OFFSET = 1_000_000;

function copyOf(value: unknown, copy: number): unknown {
  if (Array.isArray(value)) return value.map((item) => copyOf(item, copy));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => {
    if (STRING_IDS.has(key) && typeof inner === 'string') return [key, `${inner}~${copy}`];
    if (NUMBER_IDS.has(key) && typeof inner === 'number') return [key, inner + copy * NUMBER_OFFSET];
    return [key, copyOf(inner, copy)];
  }));
}

/** The sample's list: the document itself, or its `messages`. */
function listOf(doc: unknown, list: DocumentSample['list']): unknown[] {
  return (list === 'document' ? doc : (doc as { messages: unknown[] }).messages) as unknown[];
}

/** How many copies of the sample's list make a document of about `bytes`. */
export function copiesFor(text: string, list: DocumentSample['list'], bytes: number): number {
  return Math.max(1, Math.ceil(bytes / JSON.stringify(listOf(JSON.parse(text), list)).length));
}

/** The sample with its list repeated `copies` times (copy 0 as it is, the others with fresh ids). */
export function repeatedDocument(text: string, list: DocumentSample['list'], copies: number): string {
  const doc = JSON.parse(text) as unknown;
  const items = listOf(doc, list);
  const repeated: unknown[] = [];
  for (let copy = 0; copy < copies; copy++) for (const item of items) repeated.push(copy === 0 ? item : copyOf(item, copy));
  return JSON.stringify(list === 'document' ? repeated : { ...(doc as Record<string, unknown>), messages: repeated }, null, 1);
}

export function documentImportTable(samples: readonly DocumentSample[] = DOCUMENT_SAMPLES): void {
  const rows: string[][] = [];
  for (const sample of samples) {
    const original = readFileSync(sample.path, 'utf8');
    const text = repeatedDocument(original, sample.list, copiesFor(original, sample.list, DOCUMENT_IMPORT_BYTES));
    const name = sample.path.split('/').pop()!;
    const start = performance.now();
    const result = importText(text, { fileName: name });
    const end = performance.now();
    rows.push([sample.format, result.format, mb(Buffer.byteLength(text)), fmt(result.entries.length), fmt(result.issueCount ?? result.issues.length), duration(end - start), fmt(Buffer.byteLength(text) / 1e6 / ((end - start) / 1000))]);
  }
  console.log();
  printTable(['document', 'read as', 'file', 'entries', 'issues', 'import (one task, in the worker)', 'MB/s'], rows);
}
