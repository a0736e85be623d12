/**
 * The judged mode's four dimensions, after Factory's probe types: recall (exact facts: the user's
 * instructions, values, errors), the artifact trail (files touched and what happened to each),
 * continuation (what the user asks for now) and decision (choices and why). Each probe category
 * counts toward one; a configuration's score per dimension is the mean of its graded answers there,
 * and its overall score the mean of its dimensions, as Factory's overall is. An answer whose grade
 * could not be read counts nowhere (never as 0) and is counted as unreadable.
 */
import type { ProbeCategory } from '../probes/types.ts';

export type JudgeKind = 'recall' | 'artifact' | 'continuation' | 'decision';

export const JUDGE_KINDS: readonly JudgeKind[] = ['recall', 'artifact', 'continuation', 'decision'];

/** The dimension each probe category's question counts toward. */
export const KIND_OF_CATEGORY: Readonly<Record<ProbeCategory, JudgeKind>> = {
  artifact: 'artifact',
  task: 'continuation',
  decision: 'decision',
  constraint: 'recall',
  identifier: 'recall',
  error: 'recall',
};

/** Column titles, as the tables show them. */
export const JUDGE_KIND_TITLES: Readonly<Record<JudgeKind, string>> = {
  recall: 'Recall',
  artifact: 'Artifact trail',
  continuation: 'Continuation',
  decision: 'Decision',
};

/** One configuration's grades by dimension: a mean 0-5 (two decimals), null where nothing of it was graded. */
export type KindGrades = Record<JudgeKind, number | null> & {
  overall: number | null;
  /** Answers graded. */
  graded: number;
  /** Answers whose grade could not be read (left out of every mean). */
  unreadable: number;
};

/** The means by dimension of `items` (one configuration's answers); `score` null for an unreadable grade. */
export function gradesByKind(items: ReadonlyArray<{ category: ProbeCategory; score: number | null }>): KindGrades {
  const sums: Record<JudgeKind, { sum: number; n: number }> = { recall: { sum: 0, n: 0 }, artifact: { sum: 0, n: 0 }, continuation: { sum: 0, n: 0 }, decision: { sum: 0, n: 0 } };
  let unreadable = 0;
  for (const item of items) {
    if (item.score === null) {
      unreadable++;
      continue;
    }
    const cell = sums[KIND_OF_CATEGORY[item.category]];
    cell.sum += item.score;
    cell.n++;
  }
  const mean = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);
  const kinds = Object.fromEntries(JUDGE_KINDS.map((kind) => [kind, mean(sums[kind].sum, sums[kind].n)])) as Record<JudgeKind, number | null>;
  const present = JUDGE_KINDS.map((kind) => kinds[kind]).filter((value): value is number => value !== null);
  return {
    ...kinds,
    overall: mean(present.reduce((a, b) => a + b, 0), present.length),
    graded: JUDGE_KINDS.reduce((n, kind) => n + sums[kind].n, 0),
    unreadable,
  };
}
