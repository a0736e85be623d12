/**
 * What Claude Code attaches again after its summary: the files read most recently (newest first,
 * one per path, each cut to a token cap, all within a budget), and the todo list as last written.
 * Read from the summarized history's Read and TodoWrite calls and their results.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import { blockText, type ToolCallBlock } from '../../journal/entry.ts';
import { indexOfId } from '../agent-state.ts';

export interface RestoredFile {
  path: string;
  /** Index of the entry holding the read's result. */
  resultIndex: number;
  text: string;
  tokens: number;
  truncated: boolean;
}

function field(input: unknown, ...names: string[]): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  for (const name of names) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** `text` cut to at most `tokens` tokens of `count`, by halving its length until it fits. */
function cutTo(text: string, tokens: number, count: (s: string) => number): { text: string; truncated: boolean } {
  if (count(text) <= tokens) return { text, truncated: false };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return { text: text.slice(0, lo), truncated: true };
}

/** The newest reads among `indices` (calls whose result is in the input), as Claude Code re-attaches them. */
export function restoredFiles(input: CompactionInput, indices: readonly number[], limits: { files: number; fileTokens: number; budget: number }): RestoredFile[] {
  const out: RestoredFile[] = [];
  const seen = new Set<string>();
  let used = 0;
  for (let k = indices.length - 1; k >= 0 && out.length < limits.files; k--) {
    const entry = input.entries[indices[k]!]!;
    const calls = entry.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call' && b.name.toLowerCase() === 'read');
    for (let c = calls.length - 1; c >= 0 && out.length < limits.files; c--) {
      const call = calls[c]!;
      const path = field(call.input, 'file_path', 'path');
      if (path === undefined || seen.has(path) || call.resultEntryId === undefined) continue;
      const resultIndex = indexOfId(input.entries, call.resultEntryId);
      if (resultIndex < 0) continue;
      const result = input.entries[resultIndex]!.blocks.find((b) => b.type === 'tool_result' && b.callId === call.callId);
      if (!result || (result.type === 'tool_result' && result.isError)) continue;
      seen.add(path);
      const cut = cutTo(blockText(result), limits.fileTokens, (s) => input.counter.count(s));
      const tokens = input.counter.count(cut.text);
      if (used + tokens > limits.budget) continue;
      used += tokens;
      out.push({ path, resultIndex, text: cut.text, tokens, truncated: cut.truncated });
    }
  }
  return out;
}

/** The todo list as the last TodoWrite among `indices` left it, as text; undefined when none was written. */
export function lastTodos(input: CompactionInput, indices: readonly number[]): string | undefined {
  for (let k = indices.length - 1; k >= 0; k--) {
    const calls = input.entries[indices[k]!]!.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call' && b.name === 'TodoWrite');
    const call = calls[calls.length - 1];
    if (!call) continue;
    const todos = typeof call.input === 'object' && call.input !== null ? (call.input as { todos?: unknown }).todos : undefined;
    if (!Array.isArray(todos)) continue;
    return todos.map((t) => {
      const item = t as Record<string, unknown>;
      return `- [${typeof item.status === 'string' ? item.status : 'pending'}] ${typeof item.content === 'string' ? item.content : JSON.stringify(item)}`;
    }).join('\n');
  }
  return undefined;
}
