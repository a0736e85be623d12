/**
 * A saved sweep (schema v7): one strategy replayed at many settings over sessions of the library,
 * kept as each finished point's figures on each session, so that changing the retention weights
 * scores it again (src/core/sweep/run.ts `assembleSweep`) without replaying anything.
 */
import type { CounterId } from '../core/tokens/counters.ts';
import type { SessionFigures } from '../core/sweep/score.ts';
import type { RetentionWeights, SweepOptions } from '../core/sweep/types.ts';

/** A session of a sweep as it was when the sweep ran. */
export interface SweepSessionRef {
  conversationId: string;
  /** The import replayed: after a re-import the session's figures may differ. */
  importId: string;
  title: string;
}

/** How the points were chosen, as the form gave them (the CLI's `--vary` texts). */
export interface SweepPlan {
  vary: string[];
  /** Points drawn at random from the ranges instead of the grid. */
  random?: number;
  seed?: number;
}

export interface SweepRow {
  id: string;
  createdAt: number;
  name: string;
  strategy: string;
  plan: SweepPlan;
  sessions: SweepSessionRef[];
  counter: CounterId;
  contextWindow: number;
  /** Who wrote the summaries: 'offline', or the remote model's label (never its key). */
  summarizer: string;
  /** The finished points, in the order they were planned (a cancelled sweep keeps those that finished). */
  points: SweepOptions[];
  /** `figures[point][session]`, in the order of `points` and `sessions`. */
  figures: SessionFigures[][];
  /** Points planned: more than `points.length` when the sweep was cancelled. */
  planned: number;
  cancelled: boolean;
  /** The weights the sweep is scored with (editable after it ran). */
  weights: RetentionWeights;
  /** Wall time of the run, ms. */
  durationMs: number;
}
