/**
 * Optional timing hooks for benchmarks (bench/timeline-page): the fold timeline reports how long
 * each frame plan and each canvas draw took. Nothing sets them in the app, so there they cost one
 * property read per frame.
 */
import type { TimelinePlan } from './geometry.ts';

export interface DrawProbe {
  /** Called after `planTimeline` with its duration. Unit: ms. */
  onPlan?: (ms: number) => void;
  /** Called after the canvas draw (`drawTimeline`, in the animation frame) with its duration. Unit: ms. */
  onDraw?: (ms: number, plan: TimelinePlan) => void;
}

/** The hooks; a benchmark page assigns them before mounting the timeline. */
export const drawProbe: DrawProbe = {};
