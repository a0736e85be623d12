/**
 * Runs a sweep: every point replayed on every session with the same replay as Compare and `cli
 * eval` (`compareConfigs`, one configuration per point, so a session's input and probes are built
 * once for all its points), then each point scored (score.ts) and the front and recommendation
 * drawn (assemble.ts). Pure and single-threaded: the CLI's threads and the page's
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
import { assembleSweep } from './assemble.ts';
import { sessionFigures, type SessionFigures } from './score.ts';
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
