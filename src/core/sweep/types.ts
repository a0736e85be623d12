/**
 * The vocabulary of a sweep: one strategy replayed at many settings (points) over the same
 * sessions, each point scored by what it costs (tokens per task, as a ratio to never compacting)
 * and what it keeps (a weighted retention score), the Pareto front of those points and the one
 * recommended. Shared by the CLI `sweep`, the page's Sweep tab and their exports, so a figure is
 * computed once (score.ts) and read everywhere.
 */
import type { ProbeCategory } from '../probes/types.ts';
import type { AgentConfig } from '../tuning/types.ts';

/** A strategy's option values at one point (typed: integers stay integers, booleans booleans). */
export type SweepOptions = Record<string, number | boolean | string>;

/** Weight of each probe category in the retention score (score.ts has the defaults); >= 0, not all 0. */
export type RetentionWeights = Record<ProbeCategory, number>;

/** Probes kept by category, summed over every session of the sweep. */
export type SweepProbes = Record<ProbeCategory, { kept: number; total: number }>;

/** One setting of the strategy, replayed on every session and scored. */
export interface SweepPoint {
  options: SweepOptions;
  /**
   * Tokens per task: the tokens one session's replay sends (every call's context plus the
   * summarizer's input and output: the replay's `totals.tokensPerTask`), averaged over the sessions.
   */
  tokensPerTask: number;
  /**
   * The point's tokens per task over the uncompacted run's (every call sent everything before it),
   * both summed over the same sessions: 1 saves nothing, 0.4 sends 40% of the tokens.
   */
  ratioToUncompacted: number;
  /** Weighted mean of each probe category's kept share (score.ts `weightedRetention`), 0..1. */
  retention: number;
  probes: SweepProbes;
  /** Calls over the window summed over the sessions: the real agent would have failed them. */
  overflowCalls: number;
  /** Compactions made, summed over the sessions. */
  compactions: number;
  /**
   * Why the point could not be replayed on some session (a refused option combination, a
   * summarizer failure), one line per session that failed; such a point is plotted from the
   * sessions that ran but is never on the front nor recommended. Absent when every session ran.
   */
  errors?: string[];
}

/** A finished (or cancelled) sweep: its points, which are on the front, and the recommendation. */
export interface SweepResult {
  strategy: string;
  points: SweepPoint[];
  /** Indexes into `points` of the Pareto front (pareto.ts), by increasing ratio. */
  pareto: number[];
  /** Index into `points` of the recommended point (recommend.ts); -1 when no point ran on every session. */
  recommended: number;
  /** One sentence with the recommended point's numbers (or why there is none). */
  reason: string;
  /** The recommended point as the lines to paste into the agent's configuration, for an agent's own strategy (tuning/agent-config.ts). */
  agentConfig?: AgentConfig;
}
