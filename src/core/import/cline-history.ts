/**
 * What Cline writes into `api_conversation_history.json` beyond Anthropic messages, as real task
 * folders of Cline 3.x (January and April 2026) show it (docs/formats.md, Cline / Roo Code):
 * - tool results as text: with native tool calls the assistant message holds `tool_use` blocks with
 *   ids, but the next user message carries each result as a text block opening
 *   `[<tool> for '<parameter>'] Result:` (the output after it, or in the one block after a bare
 *   header), not as a `tool_result` block; such blocks answer that message's calls in order;
 * - on each message `ts` (epoch ms), `modelInfo` (`modelId`, `providerId`, `mode`) and
 *   `metrics.tokens` (`prompt` without the cache, `cached` = cache reads + writes, `completion`).
 */
import type { Entry, Usage } from '../journal/entry.ts';
import { isRecord, num, str } from './builder.ts';

/** The header Cline opens a text result with; the parameter may hold newlines and brackets. */
const RESULT_HEADER = /^\[[\w:.-]+(?: for [\s\S]*?)?\] Result:/;

/** The messages with Cline's text results turned into `tool_result` blocks for the calls they answer. */
export function withClineTextResults(messages: readonly unknown[]): unknown[] {
  let pending: string[] = [];
  return messages.map((message) => {
    if (!isRecord(message) || !Array.isArray(message.content)) {
      pending = [];
      return message;
    }
    const blocks = message.content as unknown[];
    if (message.role === 'assistant') {
      pending = blocks.flatMap((block) => (isRecord(block) && block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : []));
      return message;
    }
    const open = pending.filter((id) => !blocks.some((block) => isRecord(block) && block.type === 'tool_result' && block.tool_use_id === id));
    pending = [];
    if (open.length === 0) return message;
    const content: unknown[] = [];
    for (let k = 0; k < blocks.length; k++) {
      const block = blocks[k];
      const text = isRecord(block) && block.type === 'text' ? str(block.text) : undefined;
      const id = text !== undefined && RESULT_HEADER.test(text) ? open.shift() : undefined;
      if (id === undefined) {
        content.push(block);
        continue;
      }
      const parts: unknown[] = [block];
      // A bare header: the output is the block after it.
      const next = blocks[k + 1];
      if (text!.replace(RESULT_HEADER, '').trim() === '' && isRecord(next) && (next.type === 'image' || (next.type === 'text' && !RESULT_HEADER.test(str(next.text) ?? '')))) {
        parts.push(next);
        k++;
      }
      content.push({ type: 'tool_result', tool_use_id: id, content: parts });
    }
    return { ...message, content };
  });
}

/** A message's `metrics.tokens` as usage: the prompt is `prompt` + `cached` (the split of the cache is not kept). */
function metricsUsage(message: Record<string, unknown>): Usage | undefined {
  const tokens = isRecord(message.metrics) && isRecord(message.metrics.tokens) ? message.metrics.tokens : undefined;
  if (!tokens) return undefined;
  const prompt = num(tokens.prompt);
  const completion = num(tokens.completion);
  if (prompt === undefined && completion === undefined) return undefined;
  return { input: (prompt ?? 0) + (num(tokens.cached) ?? 0), output: completion ?? 0 };
}

/** Fills each message's entries with its `ts`, an assistant's `modelInfo.modelId`, and its `metrics` usage where it has none. */
export function applyClineMessageFields(messages: readonly unknown[], entries: readonly Entry[]): void {
  const byMessage = new Map<number, Entry[]>();
  for (const entry of entries) {
    const match = /^m(\d+)(?:\.\d+)?$/.exec(entry.id);
    if (!match) continue;
    const index = Number(match[1]);
    byMessage.set(index, [...(byMessage.get(index) ?? []), entry]);
  }
  messages.forEach((message, i) => {
    const own = byMessage.get(i);
    if (!isRecord(message) || !own) return;
    const ts = num(message.ts);
    const model = message.role === 'assistant' && isRecord(message.modelInfo) ? str(message.modelInfo.modelId) : undefined;
    for (const entry of own) {
      if (ts !== undefined && entry.timestamp === undefined) entry.timestamp = ts;
      if (model !== undefined && entry.role === 'assistant' && entry.model === undefined) entry.model = model;
    }
    const usage = message.role === 'assistant' ? metricsUsage(message) : undefined;
    const response = own.find((entry) => entry.role === 'assistant');
    if (usage && response && !response.usage) response.usage = usage;
  });
}
