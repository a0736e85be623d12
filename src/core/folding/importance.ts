/**
 * Importance (F8), distance (F2) and the level a distance maps to (F1). Importance =
 * wRecency·recency + wAccess·access + wError·error + wState·state; distance is the nearest of the
 * iteration gap, the gap since the last recall, and the gap since a file it touched was touched again.
 */
import type { FoldOptions } from './options.ts';
import type { Level } from './types.ts';

export interface ImportanceFactors {
  /** 1 for the present, falling linearly to 0 for the first iteration. */
  recency: number;
  /** 1 - 1/(1 + recalls): 0, 0.5, 0.67, ... */
  access: number;
  /** 1 when the span holds an error. */
  error: number;
  /** Files changed / stateScale, at most 1. */
  state: number;
}

export function importanceFactors(to: number, now: number, accessCount: number, errors: number, changedFiles: number, stateScale: number): ImportanceFactors {
  return {
    recency: now <= 0 ? 1 : Math.min(1, Math.max(0, 1 - (now - to) / now)),
    access: 1 - 1 / (1 + accessCount),
    error: errors > 0 ? 1 : 0,
    state: Math.min(1, changedFiles / stateScale),
  };
}

export function importance(f: ImportanceFactors, o: Pick<FoldOptions, 'weightRecency' | 'weightAccess' | 'weightError' | 'weightState'>): number {
  return o.weightRecency * f.recency + o.weightAccess * f.access + o.weightError * f.error + o.weightState * f.state;
}

/** Distance of an iteration from the present: touching its files again, or recalling it, brings it near. */
export function distance(iteration: number, now: number, lastAccess: number, lastTouch: number): number {
  let d = now - iteration;
  if (lastAccess >= 0) d = Math.min(d, now - lastAccess);
  if (lastTouch >= 0) d = Math.min(d, now - lastTouch);
  return d;
}

/** The level of a distance by the thresholds (inclusive upper bounds of L0..L3). */
export function levelFor(d: number, o: Pick<FoldOptions, 'l0Distance' | 'l1Distance' | 'l2Distance' | 'l3Distance'>): Level {
  if (d <= o.l0Distance) return 0;
  if (d <= o.l1Distance) return 1;
  if (d <= o.l2Distance) return 2;
  if (d <= o.l3Distance) return 3;
  return 4;
}

/** Periodic folding interval for a pressure (F4): < low every everyLow, up to pressureRatio everyMedium, above everyHigh. */
export function foldEvery(pressure: number, o: Pick<FoldOptions, 'adaptive' | 'lowRatio' | 'pressureRatio' | 'everyLow' | 'everyMedium' | 'everyHigh'>): number {
  if (!o.adaptive) return o.everyMedium;
  if (pressure < o.lowRatio) return o.everyLow;
  if (pressure <= o.pressureRatio) return o.everyMedium;
  return o.everyHigh;
}
