/**
 * The recommended point of a sweep: on the Pareto front, the cheapest point (lowest ratio of tokens
 * per task to the uncompacted run) whose retention is within a tolerance of the best retention on
 * the front, with no overflowing call unless every point overflows (the front then holds only
 * overflowing points, see pareto.ts). And the one sentence that says why, with its numbers.
 */
import { paretoFront } from './pareto.ts';
import type { SweepOptions, SweepPoint } from './types.ts';

/** How far below the best retention the recommended point may be (absolute, 0..1). Default 0.02. */
export const DEFAULT_RETENTION_TOLERANCE = 0.02;

export interface RecommendOptions {
  /** Default `DEFAULT_RETENTION_TOLERANCE`. */
  tolerance?: number;
  /** Sessions every point was replayed on, named in the reason. */
  sessions: number;
}

export interface Recommendation {
  /** Index into the points; -1 when no point ran on every session. */
  index: number;
  pareto: number[];
  reason: string;
}

/** The recommended point, the front it was chosen on, and why (see the module comment). */
export function recommend(points: readonly SweepPoint[], options: RecommendOptions): Recommendation {
  const tolerance = options.tolerance ?? DEFAULT_RETENTION_TOLERANCE;
  if (!(tolerance >= 0 && tolerance <= 1)) throw new RangeError(`The retention tolerance must be from 0 to 1; got ${tolerance}.`);
  const pareto = paretoFront(points);
  if (pareto.length === 0) {
    return { index: -1, pareto, reason: `No point ran on every one of the ${plural(options.sessions, 'session')}, so none is recommended: see each point's errors.` };
  }
  const best = Math.max(...pareto.map((i) => points[i]!.retention));
  // The front is sorted by increasing ratio: the first point close enough to the best is the cheapest.
  const index = pareto.find((i) => points[i]!.retention >= best - tolerance - 1e-12)!;
  return { index, pareto, reason: reasonFor(points, index, best, options.sessions) };
}

function reasonFor(points: readonly SweepPoint[], index: number, best: number, sessions: number): string {
  const point = points[index]!;
  const setting = describeSetting(point.options, variedNames(points));
  // Two decimals unless they would show a lower retention as equal to the best: then three.
  const digits = fixed(point.retention) === fixed(best) ? 3 : 2;
  const kept = point.retention === best ? `keeps the best retention ${fixed(best)}` : `keeps retention ${point.retention.toFixed(digits)} against the best ${best.toFixed(digits)}`;
  const overflow = point.overflowCalls === 0 ? 'with no overflowing call' : `with ${plural(point.overflowCalls, 'overflowing call')} (every point overflows)`;
  return `${setting} ${kept} at ${fixed(point.ratioToUncompacted)}x the uncompacted tokens per task, ${overflow}, over ${plural(sessions, 'session')}.`;
}

/** Names of the options whose value differs between points (all of them for a single point). */
export function variedNames(points: readonly Pick<SweepPoint, 'options'>[]): string[] {
  const first = points[0]?.options ?? {};
  const names = Object.keys(first);
  if (points.length < 2) return names;
  return names.filter((name) => points.some((point) => point.options[name] !== first[name]));
}

/** `keepRecentTokens=8000, reserveTokens=16384`: the named options of a point ("the default setting" when none). */
export function describeSetting(options: SweepOptions, names: readonly string[]): string {
  const shown = names.filter((name) => name in options);
  return shown.length === 0 ? 'The default setting' : shown.map((name) => `${name}=${String(options[name])}`).join(', ');
}

function fixed(value: number): string {
  return value.toFixed(2);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
