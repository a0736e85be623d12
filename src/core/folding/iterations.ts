/**
 * Splits a run into iterations (one model call plus the tool results answering it) with exact,
 * contiguous entry ranges, so the iterations tile the entries and any span of them can be unfolded
 * back to its source byte for byte.
 */
import type { Entry } from '../journal/entry.ts';
import type { Iteration } from './types.ts';

function opensUserTurn(entry: Entry): boolean {
  return entry.role === 'user' && entry.kind === 'message' && !entry.flags?.injected && !entry.flags?.sidechain
    && entry.blocks.some((block) => block.type === 'text' && block.text.trim().length > 0);
}

function isModelCall(entry: Entry): boolean {
  return entry.role === 'assistant' && entry.kind === 'message' && !entry.flags?.sidechain;
}

function answersTool(entry: Entry): boolean {
  return entry.blocks.some((block) => block.type === 'tool_result');
}

/**
 * A user message opens an iteration (the model call answering it joins it); an assistant message
 * opens one once the current iteration's call has had tool results (parts of one response, as Codex
 * writes them, stay together). Everything else (results, events, injected text) joins the current one.
 */
export function toIterations(entries: readonly Entry[]): Iteration[] {
  const out: Iteration[] = [];
  let current: Iteration | undefined;
  let hasCall = false;
  let hasResult = false;
  entries.forEach((entry, position) => {
    const user = opensUserTurn(entry);
    const call = isModelCall(entry);
    const open = current === undefined || user || (call && hasCall && hasResult);
    if (open) {
      current = { index: out.length, from: position, to: position, userTurn: user };
      out.push(current);
      hasCall = false;
      hasResult = false;
    }
    current!.to = position;
    if (call) hasCall = true;
    if (hasCall && answersTool(entry)) hasResult = true;
  });
  return out;
}

/** Iteration number of every entry position. */
export function iterationOfEntry(iterations: readonly Iteration[], entryCount: number): Int32Array {
  const out = new Int32Array(entryCount);
  for (const it of iterations) out.fill(it.index, it.from, it.to + 1);
  return out;
}
