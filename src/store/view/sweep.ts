/**
 * A sweep as the page shows it, from the same core functions `cli sweep` prints with: the retention
 * weights (defaults and their check), how many points a form's ranges make (or why they make none),
 * a saved sweep scored with the weights chosen, the settings its points vary, and its JSON and CSV
 * exports in the shapes `cli sweep --json` and `cli sweep --csv` print.
 */
import { assembleSweep } from '../../core/sweep/assemble.ts';
import { sweepPoints, type SweepPointsArgs } from '../../core/sweep/points.ts';
import { sweepCsv } from '../../core/sweep/table.ts';
import type { RetentionWeights, SweepResult } from '../../core/sweep/types.ts';
import type { SweepRow } from '../../db/sweep-row.ts';

export { checkWeights, DEFAULT_RETENTION_WEIGHTS } from '../../core/sweep/score.ts';
export { variedNames } from '../../core/sweep/recommend.ts';

/** The points the form's ranges make, counted, or the core's reason they make none. */
export function sweepPlanSize(args: Pick<SweepPointsArgs, 'strategy' | 'vary' | 'random' | 'contextWindow'>): { points: number } | { error: string } {
  try {
    return { points: sweepPoints(args).length };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The saved sweep scored with `weights` (the row's own by default), its sessions named as in the row. */
export function sweepResultOf(row: SweepRow, weights: Readonly<RetentionWeights> = row.weights): SweepResult {
  return assembleSweep({
    strategy: row.strategy, points: row.points, sessions: row.sessions.map((session) => session.title), figures: row.figures, weights, contextWindow: row.contextWindow,
  });
}

/** The JSON export: what `cli sweep --json` prints for the same figures. */
export function sweepJson(result: SweepResult): string {
  return JSON.stringify(result, null, 2);
}

/** The CSV export: what `cli sweep --csv` prints. */
export function sweepCsvText(result: SweepResult): string {
  return sweepCsv(result);
}
