/**
 * Assembles a sweep from its figures: every point scored over its sessions (score.ts), the Pareto
 * front and the recommendation drawn (recommend.ts) and the agent's block handed back
 * (tuning/agent-config.ts). Replays nothing, so the page can rescore a saved sweep with new
 * weights without loading the replay engine or a tokenizer.
 */
import { agentConfigFor, basisOf } from '../tuning/agent-config.ts';
import { recommend } from './recommend.ts';
import { checkWeights, scorePoint, type SessionFigures } from './score.ts';
import type { RetentionWeights, SweepOptions, SweepResult } from './types.ts';

export interface AssembleArgs {
  strategy: string;
  points: readonly SweepOptions[];
  /** Names of the sessions, in the order of each point's figures. */
  sessions: readonly string[];
  /** `figures[point][session]`. */
  figures: ReadonlyArray<readonly SessionFigures[]>;
  weights: Readonly<RetentionWeights>;
  /** Retention tolerance of the recommendation (recommend.ts's default when absent). */
  tolerance?: number;
  /** The window the sessions were replayed at, named beside the agent's block. */
  contextWindow?: number;
}

/** Scores every point and draws the front and the recommendation. */
export function assembleSweep(args: AssembleArgs): SweepResult {
  checkWeights({ ...args.weights });
  if (args.figures.length !== args.points.length) throw new RangeError(`${args.figures.length} figure rows for ${args.points.length} points.`);
  const points = args.points.map((options, p) => {
    const row = args.figures[p]!;
    if (row.length !== args.sessions.length) throw new RangeError(`Point ${p} has figures for ${row.length} of ${args.sessions.length} sessions.`);
    return scorePoint(options, row.map((f, s) => ({ ...f, session: args.sessions[s]! })), args.weights);
  });
  const { index, pareto, reason } = recommend(points, { sessions: args.sessions.length, ...(args.tolerance !== undefined ? { tolerance: args.tolerance } : {}) });
  const chosen = points[index];
  const agentConfig = chosen ? agentConfigFor(args.strategy, chosen.options, basisOf(chosen, args.sessions, args.contextWindow)) : undefined;
  return { strategy: args.strategy, points, pareto, recommended: index, reason, ...(agentConfig ? { agentConfig } : {}) };
}
