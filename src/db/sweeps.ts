/**
 * Saved sweeps (sweep-row.ts): saved when a sweep ends (finished, or cancelled with the points done
 * so far), listed newest first, reopened, given new weights, deleted.
 */
import { checkWeights } from '../core/sweep/score.ts';
import type { RetentionWeights } from '../core/sweep/types.ts';
import type { FoldlabDatabase } from './schema.ts';
import type { SweepRow } from './sweep-row.ts';

export async function saveSweep(db: FoldlabDatabase, sweep: Omit<SweepRow, 'id' | 'createdAt'>, now = Date.now()): Promise<SweepRow> {
  if (sweep.figures.length !== sweep.points.length) throw new RangeError(`A sweep row needs figures for each of its ${sweep.points.length} points; got ${sweep.figures.length}.`);
  checkWeights({ ...sweep.weights });
  const row: SweepRow = { ...sweep, id: crypto.randomUUID(), createdAt: now };
  await db.sweeps.add(row);
  return row;
}

/** Every saved sweep, newest first. */
export function listSweeps(db: FoldlabDatabase): Promise<SweepRow[]> {
  return db.sweeps.orderBy('createdAt').reverse().toArray();
}

/** Scores a saved sweep with other weights from now on (refused when negative or all 0). */
export async function setSweepWeights(db: FoldlabDatabase, id: string, weights: RetentionWeights): Promise<void> {
  checkWeights({ ...weights });
  const changed = await db.sweeps.update(id, { weights: { ...weights } });
  if (changed === 0) throw new Error(`No saved sweep ${id}: it may have been deleted.`);
}

export async function deleteSweep(db: FoldlabDatabase, id: string): Promise<void> {
  await db.sweeps.delete(id);
}
