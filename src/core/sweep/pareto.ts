/**
 * The Pareto front of a sweep: the points no other point beats on both axes at once, cost (the
 * ratio of tokens per task to the uncompacted run, lower is better) and retention (higher is
 * better).
 *
 * Overflow comes first: a point that sends some call over the window is dominated by every point
 * that sends none, whatever their cost and retention, because its savings are calls the real agent
 * would have failed. Overflowing points are still plotted, and when every point overflows the
 * front is drawn among them on the two axes alone. A point with `errors` (it did not run on every
 * session) is neither on the front nor dominates anything.
 */
import type { SweepPoint } from './types.ts';

type Scored = Pick<SweepPoint, 'ratioToUncompacted' | 'retention' | 'overflowCalls' | 'errors'>;

/** Whether a point's figures cover every session of the sweep. */
export function isComplete(point: Scored): boolean {
  return point.errors === undefined || point.errors.length === 0;
}

/** Whether `a` dominates `b` (see the module comment); both must be complete. */
export function dominates(a: Scored, b: Scored): boolean {
  const aOver = a.overflowCalls > 0;
  const bOver = b.overflowCalls > 0;
  if (aOver !== bOver) return !aOver;
  const noWorse = a.ratioToUncompacted <= b.ratioToUncompacted && a.retention >= b.retention;
  const better = a.ratioToUncompacted < b.ratioToUncompacted || a.retention > b.retention;
  return noWorse && better;
}

/**
 * Indexes of the complete points no complete point dominates, by increasing ratio (then
 * decreasing retention, then index). Points with equal figures are all on the front.
 */
export function paretoFront(points: readonly Scored[]): number[] {
  const complete = points.flatMap((point, index) => (isComplete(point) ? [index] : []));
  const front = complete.filter((i) => !complete.some((j) => j !== i && dominates(points[j]!, points[i]!)));
  return front.sort((i, j) => points[i]!.ratioToUncompacted - points[j]!.ratioToUncompacted || points[j]!.retention - points[i]!.retention || i - j);
}
