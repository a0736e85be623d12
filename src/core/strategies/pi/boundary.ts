/**
 * Where the current context starts (P4): after a previous compaction, the model sees the previous
 * summary plus the entries from its firstKeptEntryId on, so a new compaction works only from there
 * and updates that summary. Also carries the previous run's file lists (P5).
 */
import type { CompactionInput } from '../../compaction/types.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import { piBranchFacts } from './branch-facts.ts';

export interface Boundary {
  /** Index of the first entry of the current context's journal part (0 without a previous compaction). */
  start: number;
  /** The summary the model sees in place of the entries before `start`. */
  previousSummary?: string;
  /** Files the previous pi compaction listed as read / modified (P5, carried forward). */
  readFiles: string[];
  modifiedFiles: string[];
  notes: string[];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function resolveBoundary(input: CompactionInput): Boundary {
  const previous = input.previous;
  const none: Boundary = { start: 0, readFiles: [], modifiedFiles: [], notes: [] };
  if (!previous) return none;
  const summary = previous.summaries.length > 0 ? previous.summaries.join('\n\n') : undefined;
  if (previous.firstKeptEntryId === undefined || summary === undefined) {
    return { ...none, notes: ['The previous compaction names no first kept entry or summary; compacting the whole branch from scratch.'] };
  }
  const start = piBranchFacts(input.entries).indexOf(previous.firstKeptEntryId);
  if (start < 0) {
    return { ...none, notes: [`The previous compaction kept entries from ${previous.firstKeptEntryId}, which is not on this branch; compacting the whole branch from scratch.`] };
  }
  const notes = [`Previous compaction (${previous.strategy}) summarized everything before ${previous.firstKeptEntryId} (entry ${start}); only entries from there on are read, and its summary is updated.`];
  const state = previous.strategy === 'pi' ? previous.state : undefined;
  return { start, previousSummary: summary, readFiles: stringList(state?.readFiles), modifiedFiles: stringList(state?.modifiedFiles), notes };
}

/** Whether an entry is a system message: always kept, never summarized. */
export function isSystemMessage(entry: { role: string; kind: string }): boolean {
  return entry.role === 'system' && entry.kind === 'message';
}

/**
 * Tokens of the context the model sees now, with input.tokens (the user's counter): system
 * entries before the boundary, the previous summary, and every entry from the boundary on.
 */
export function currentContextTokens(input: CompactionInput, boundary: Boundary): number {
  let tokens = input.tokens.range(boundary.start, input.entries.length - 1);
  for (const i of piBranchFacts(input.entries).system) {
    if (i >= boundary.start) break;
    tokens += input.tokens.countAt(i);
  }
  if (boundary.previousSummary !== undefined) tokens += summaryTokens(input.counter, boundary.previousSummary);
  return tokens;
}

/** The last previous summary counted, by counter. */
const lastSummary = new WeakMap<TokenCounter, { text: string; tokens: number }>();

/**
 * Tokens of the previous summary. A replay asks at every call until the next compaction, always with
 * the same summary: it is counted once (re-tokenizing it was most of a long pi replay's time).
 */
function summaryTokens(counter: TokenCounter, text: string): number {
  const last = lastSummary.get(counter);
  if (last?.text === text) return last.tokens;
  const tokens = counter.count(text);
  lastSummary.set(counter, { text, tokens });
  return tokens;
}
