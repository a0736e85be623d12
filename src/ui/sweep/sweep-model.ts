/**
 * How the Sweep tab draws a scored sweep (store/view/sweep.ts scores it): the series a point is in,
 * the chart's columns, the point a click picks, and the progress line of a running sweep.
 */
import type { SweepResult } from '../../core/sweep/types.ts';
import type { SweepJobProgress } from '../../store/sweep-job.ts';

/** Which series of the chart a point is drawn in. */
export type PointKind = 'fits' | 'overflows' | 'failed';

export function pointKind(result: SweepResult, index: number): PointKind {
  const point = result.points[index]!;
  if (point.errors !== undefined && point.errors.length > 0) return 'failed';
  return point.overflowCalls > 0 ? 'overflows' : 'fits';
}

/**
 * uPlot's columns: x is the ratio to uncompacted, sorted (uPlot needs x in order), with the point
 * index of each x; then one column per series (points that fit, points that overflow, the front as
 * a line, the recommended point), null where a point is not in that series.
 */
export interface ChartColumns {
  order: number[];
  xs: number[];
  fits: Array<number | null>;
  overflows: Array<number | null>;
  front: Array<number | null>;
  recommended: Array<number | null>;
}

export function chartColumns(result: SweepResult): ChartColumns {
  const order = result.points.map((_, i) => i).sort((a, b) => result.points[a]!.ratioToUncompacted - result.points[b]!.ratioToUncompacted || a - b);
  const front = new Set(result.pareto);
  const column = (keep: (i: number) => boolean) => order.map((i) => (keep(i) ? result.points[i]!.retention : null));
  return {
    order,
    xs: order.map((i) => result.points[i]!.ratioToUncompacted),
    fits: column((i) => pointKind(result, i) !== 'overflows'),
    overflows: column((i) => pointKind(result, i) === 'overflows'),
    front: column((i) => front.has(i)),
    recommended: column((i) => i === result.recommended),
  };
}

/** "3 of 8 points · 5 of 16 replays · about 12 s left", or the counting step. */
export function progressText(progress: SweepJobProgress | undefined): string {
  if (!progress) return 'Starting…';
  if (progress.phase === 'counting') return `Counting tokens: session ${progress.done + 1} of ${progress.total}`;
  const eta = progress.etaMs === undefined ? '' : ` · about ${durationText(progress.etaMs)} left`;
  return `${progress.pointsDone} of ${progress.points} points · ${progress.tasksDone} of ${progress.tasks} replays${eta}`;
}

/** 12 s, 3 min 5 s, 1 h 4 min. */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The point a click at (`left`, `top`) picks: the nearest of `positions` (index and pixel place of
 * each point) within `radius` pixels, or undefined when none is that close.
 */
export function nearestPoint(positions: ReadonlyArray<{ index: number; x: number; y: number }>, left: number, top: number, radius: number): number | undefined {
  let best: { index: number; distance: number } | undefined;
  for (const { index, x, y } of positions) {
    const distance = Math.hypot(x - left, y - top);
    if (distance <= radius && (!best || distance < best.distance)) best = { index, distance };
  }
  return best?.index;
}
