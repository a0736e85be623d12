/**
 * Cline and Roo Code tasks (docs/formats.md, Cline / Roo Code). A task folder holds
 * `api_conversation_history.json` (the Anthropic messages sent to the model) and `ui_messages.json`
 * (what the panel showed: `{ts, type: "say" | "ask", say, text}`; each `say: "api_req_started"`
 * carries the request's `tokensIn`, `tokensOut`, `cacheReads`, `cacheWrites`, `cost` as JSON text).
 *
 * Foldlab reads the history alone (recognized by the `<task>` its first prompt opens with) or a
 * task folder, which the page and the command line assemble into `{taskId, messages, ui_messages}`
 * (cline-folder.ts). The messages are read as Anthropic messages (anthropic.ts); the k-th request
 * with tokens becomes the usage of the k-th assistant message (Cline writes one request per
 * response), and a count that does not match is reported; the task's first `say: "task"` text is
 * the title.
 */
import type { Usage } from '../journal/entry.ts';
import { anthropicImporter } from './anthropic.ts';
import { isRecord, num, parseJsonLoose, str } from './builder.ts';
import { applyClineMessageFields, withClineTextResults } from './cline-history.ts';
import type { DocumentImporter, ImportResult } from './types.ts';

/** The usage of each API request the panel recorded, in order (requests without tokens left out). */
function requestUsages(ui: unknown[]): Usage[] {
  const usages: Usage[] = [];
  for (const message of ui) {
    if (!isRecord(message) || message.say !== 'api_req_started') continue;
    const info = parseJsonLoose(str(message.text) ?? '');
    if (!isRecord(info)) continue;
    const tokensIn = num(info.tokensIn);
    const tokensOut = num(info.tokensOut);
    if (tokensIn === undefined && tokensOut === undefined) continue;
    const cacheRead = num(info.cacheReads) ?? 0;
    const cacheWrite = num(info.cacheWrites) ?? 0;
    const usage: Usage = { input: (tokensIn ?? 0) + cacheRead + cacheWrite, output: tokensOut ?? 0 };
    if (cacheRead) usage.cacheRead = cacheRead;
    if (cacheWrite) usage.cacheWrite = cacheWrite;
    usages.push(usage);
  }
  return usages;
}

export const clineImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    const history = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.messages) ? (doc.messages as unknown[]) : undefined;
    const read = history === undefined ? doc : Array.isArray(doc) ? withClineTextResults(history) : { ...(doc as Record<string, unknown>), messages: withClineTextResults(history) };
    const result = anthropicImporter.parse(read, text);
    result.format = 'cline';
    if (isRecord(doc) && Array.isArray(doc.ui_messages)) readPanel(doc, doc.ui_messages, result);
    // After the panel: its usage keeps the split of the cache that the history's metrics lose.
    if (history) applyClineMessageFields(history, result.entries);
    return result;
  },
};

/** The task's id and title, and each request's usage, from the panel's `ui_messages`. */
function readPanel(doc: Record<string, unknown>, ui: unknown[], result: ImportResult): void {
  const taskId = str(doc.taskId);
  if (taskId) result.meta.sessionId = taskId;
  const task = ui.find((message: unknown) => isRecord(message) && message.say === 'task');
  const title = isRecord(task) ? str(task.text) : undefined;
  if (title) result.meta.title = title.length > 80 ? `${title.slice(0, 79)}…` : title;
  const usages = requestUsages(ui);
  const messages = doc.messages as unknown[];
  const assistants = messages.flatMap((message, i) => (isRecord(message) && message.role === 'assistant' ? [i] : []));
  const byId = new Map(result.entries.map((entry) => [entry.id, entry]));
  assistants.forEach((i, k) => {
    const usage = usages[k];
    const entry = byId.get(`m${i}`);
    if (usage && entry) entry.usage = usage;
  });
  if (usages.length !== assistants.length) {
    const line = result.entries[0]?.line ?? 1;
    result.issues.push({ line, kind: 'unsupported', message: `ui_messages.json records ${usages.length} API request${usages.length === 1 ? '' : 's'} with tokens for ${assistants.length} assistant message${assistants.length === 1 ? '' : 's'}; the first ${Math.min(usages.length, assistants.length)} were paired in order, the rest have no usage` });
  }
}
