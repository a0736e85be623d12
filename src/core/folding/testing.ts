/**
 * Factories for folding tests: a run of iterations described step by step (the file each one
 * reads or edits, how long its tool output is, what the model said) turned into entries and
 * chars/4 counts, and a session stepped one iteration at a time so a test can look between steps.
 */
import { makeEntries, type Spec } from '../compaction/testing.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { createFoldSession } from './run.ts';
import type { FoldSession } from './session.ts';
import { toIterations } from './iterations.ts';

export const testCounter = getEstimator('chars4');

export interface Step {
  /** File the iteration's tool call reads or edits. */
  file: string;
  edit?: boolean;
  /** Lines of tool output (default 40). */
  lines?: number;
  /** What the model says (default "Step i: working on <file>."). */
  said?: string;
  error?: boolean;
  /** The tool output itself, instead of the lines. */
  output?: string;
}

/** Entries of a run: a user request, then one model call with its tool result per step. */
export function stepEntries(steps: readonly Step[], request = 'Please refactor the billing module and keep tests passing.'): Entry[] {
  const specs: Spec[] = [{ user: request }];
  steps.forEach((step, i) => {
    specs.push({ assistant: step.said ?? `Step ${i}: working on ${step.file}.`, calls: [{ id: `c${i}`, name: step.edit ? 'Edit' : 'Read', input: { file_path: step.file } }] });
    specs.push({ tool: step.output ?? `${'line of output\n'.repeat(step.lines ?? 40)}done`, callId: `c${i}`, ...(step.error ? { error: true } : {}) });
  });
  return makeEntries(specs);
}

export function counted(entries: Entry[]): { entries: Entry[]; counts: Uint32Array } {
  return { entries, counts: countEntries(entries, testCounter).totals };
}

/** A session over `entries`, and a function pushing the next iteration (false when there is none). */
export function stepper(entries: readonly Entry[], counts: ArrayLike<number>, options: Record<string, unknown> = {}): { session: FoldSession; next: () => boolean } {
  const session = createFoldSession(options, new Map(), testCounter);
  const its = toIterations(entries);
  let k = 0;
  return {
    session,
    next: () => {
      const it = its[k++];
      if (!it) return false;
      session.push(entries.slice(it.from, it.to + 1), Array.from({ length: it.to - it.from + 1 }, (_, j) => counts[it.from + j] ?? 0));
      return true;
    },
  };
}
