/**
 * One sweep from start to saved row: count each session once (the engine caches the counts its
 * workers then read), replay every point on every session in the sweep pool, and save the points
 * that finished (all of them, or those done before a cancel) with their figures per session.
 * Kept apart from the store so the Node tests run it with in-thread workers on a real library.
 */
import type { CounterId } from '../core/tokens/counters.ts';
import type { RetentionWeights, SweepOptions } from '../core/sweep/types.ts';
import type { FoldlabDatabase } from '../db/schema.ts';
import type { SweepPlan, SweepRow, SweepSessionRef } from '../db/sweep-row.ts';
import { saveSweep } from '../db/sweeps.ts';
import { runSweepPool, type SweepPoolProgress, type SweepTask, type SweepWorkerFactory } from '../worker/sweep/sweep-client.ts';

export interface SweepJobRequest {
  name: string;
  strategy: string;
  plan: SweepPlan;
  /** The points, each the strategy's full options (`sweepPoints`). */
  points: SweepOptions[];
  sessions: SweepSessionRef[];
  counter: CounterId;
  contextWindow: number;
  /** The summarizer of every replay (a remote one carries its key, never saved). */
  summarizer: Pick<SweepTask, 'summarizer' | 'remote' | 'timeoutMs'>;
  /** How the row names it: 'offline' or the model's label. */
  summarizerLabel: string;
  weights: RetentionWeights;
}

export interface SweepJobDeps {
  db: FoldlabDatabase;
  spawn: SweepWorkerFactory;
  /** Workers at most. */
  size: number;
  /** Counts a session with `counter` and caches the counts (the engine's countTokens). */
  countTokens(conversationId: string, counter: CounterId): Promise<unknown>;
  /** Clock for the duration and the ETA. Default Date.now. Unit: ms. */
  now?: () => number;
}

export type SweepJobProgress = { phase: 'counting'; done: number; total: number } | ({ phase: 'replaying' } & SweepPoolProgress);

export interface SweepJobOutcome {
  /** The saved sweep; undefined when it was cancelled before any point finished. */
  row: SweepRow | undefined;
  cancelled: boolean;
}

export async function runSweepJob(request: SweepJobRequest, deps: SweepJobDeps, signal: AbortSignal, onProgress: (progress: SweepJobProgress) => void): Promise<SweepJobOutcome> {
  if (request.points.length === 0) throw new Error('A sweep needs at least one point: vary at least one setting.');
  if (request.sessions.length === 0) throw new Error('Choose at least one session to sweep over.');
  const now = deps.now ?? Date.now;
  const started = now();
  for (let i = 0; i < request.sessions.length; i++) {
    if (signal.aborted) return { row: undefined, cancelled: true };
    onProgress({ phase: 'counting', done: i, total: request.sessions.length });
    await deps.countTokens(request.sessions[i]!.conversationId, request.counter);
  }
  const outcome = await runSweepPool(
    {
      shared: { strategy: request.strategy, counter: request.counter, contextWindow: request.contextWindow, ...request.summarizer },
      points: request.points,
      sessions: request.sessions.map((session) => session.conversationId),
    },
    { spawn: deps.spawn, size: deps.size, now },
    signal,
    (progress) => onProgress({ phase: 'replaying', ...progress }),
  );
  const done = request.points.flatMap((options, i) => {
    const figures = outcome.figures[i];
    return figures ? [{ options, figures }] : [];
  });
  if (done.length === 0) return { row: undefined, cancelled: outcome.cancelled };
  const row = await saveSweep(deps.db, {
    name: request.name, strategy: request.strategy, plan: request.plan, sessions: request.sessions,
    counter: request.counter, contextWindow: request.contextWindow, summarizer: request.summarizerLabel,
    points: done.map((point) => point.options), figures: done.map((point) => point.figures),
    planned: request.points.length, cancelled: outcome.cancelled, weights: { ...request.weights }, durationMs: Math.max(0, now() - started),
  }, Date.now());
  return { row, cancelled: outcome.cancelled };
}
