/**
 * Runs a sweep: every point replayed on every session with the same replay as Compare and `cli
 * eval` (`compareConfigs`, one configuration per point, so a session's input and probes are built
 * once for all its points), then each point scored (score.ts) and the front and recommendation
 * drawn (pareto.ts, recommend.ts). Pure and single-threaded: the CLI's threads and the page's
 * worker pool each run `sweepSession` on their share of the sessions and points and hand the
 * figures to `assembleSweep`, so a sweep gives the same numbers however it was split.
 */
import type { ReplayFrom } from '../compaction/input-scope.ts';
import type { PromptLibrary } from '../compaction/prompts.ts';
import type { Summarizer } from '../compaction/summarizer.ts';
import type { Entry } from '../journal/entry.ts';
import { compareConfigs } from '../replay/compare.ts';
import type { UnseenPrefix } from '../replay/recorded-usage.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { agentConfigFor, basisOf } from '../tuning/agent-config.ts';
import { recommend } from './recommend.ts';
import { checkWeights, scorePoint, sessionFigures, type SessionFigures } from './score.ts';
import type { RetentionWeights, SweepOptions, SweepResult } from './types.ts';

/** One session of a sweep: a branch of a journal (default its active branch), with its entries' token counts. */
export interface SweepSession {
  /** How the session is named in errors and reports (`file#conversation`). */
  name: string;
  journal: readonly Entry[];
  /** Per-entry token counts of `journal` with the sweep's counter. */
  totals: ArrayLike<number>;
  leafId?: string;
}

/** What every replay of a sweep shares. */
export interface SweepReplayArgs {
  strategy: string;
  counter: TokenCounter;
  contextWindow: number;
  summarizer: Summarizer;
  prompts: PromptLibrary;
  from?: ReplayFrom;
  unseenPrefix?: UnseenPrefix;
  signal?: AbortSignal;
}

/**
 * The figures of each point on one session, in the points' order. `onReplayed` is called as each
 * point's replay of the session finishes (for progress).
 */
export async function sweepSession(session: SweepSession, points: readonly SweepOptions[], args: SweepReplayArgs, onReplayed?: () => void): Promise<SessionFigures[]> {
  const output = await compareConfigs({
    journal: session.journal,
    totals: session.totals,
    counter: args.counter,
    contextWindow: args.contextWindow,
    configs: points.map((options) => ({ strategy: args.strategy, options })),
    summarizer: args.summarizer,
    prompts: args.prompts,
    ...(session.leafId !== undefined ? { leafId: session.leafId } : {}),
    ...(args.from ? { from: args.from } : {}),
    ...(args.unseenPrefix ? { unseenPrefix: args.unseenPrefix } : {}),
    ...(args.signal ? { signal: args.signal } : {}),
    onProgress: (_config, progress) => {
      if (progress.phase === 'done') onReplayed?.();
    },
  });
  return points.map((_, i) => sessionFigures(output, i));
}

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

export interface RunSweepArgs extends SweepReplayArgs {
  points: readonly SweepOptions[];
  weights: Readonly<RetentionWeights>;
  tolerance?: number;
  /** Replays finished so far, of `points × sessions`. */
  onProgress?: (done: number, total: number) => void;
}

/** A whole sweep in this thread: every point on every session, in order. */
export async function runSweep(sessions: readonly SweepSession[], args: RunSweepArgs): Promise<SweepResult> {
  const total = sessions.length * args.points.length;
  let done = 0;
  const bySession: SessionFigures[][] = [];
  for (const session of sessions) {
    bySession.push(await sweepSession(session, args.points, args, () => args.onProgress?.(++done, total)));
  }
  return assembleSweep({
    strategy: args.strategy,
    points: args.points,
    sessions: sessions.map((s) => s.name),
    figures: args.points.map((_, p) => bySession.map((row) => row[p]!)),
    weights: args.weights,
    contextWindow: args.contextWindow,
    ...(args.tolerance !== undefined ? { tolerance: args.tolerance } : {}),
  });
}

/** Milliseconds left at the pace so far, or undefined before anything finished. */
export function etaMs(done: number, total: number, elapsedMs: number): number | undefined {
  if (done <= 0) return undefined;
  return Math.max(0, Math.round((elapsedMs / done) * (total - done)));
}
