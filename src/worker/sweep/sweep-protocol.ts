/**
 * What the Sweep tab's pool (sweep-pool.ts, on the page) and its sweep workers say to each other:
 * one task replays one setting of a strategy on one stored session and answers with that
 * session's figures. A cancel terminates the workers (a replay holds its thread until it ends),
 * so the protocol needs no cancel message; points already answered are kept by the pool.
 */
import { CancelledError } from '../../core/cancel.ts';
import type { SessionFigures } from '../../core/sweep/score.ts';
import type { SweepOptions } from '../../core/sweep/types.ts';
import type { CounterId } from '../../core/tokens/counters.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';

/**
 * One setting on one session, replayed as the CLI `sweep` replays it (the session's active branch
 * from its first entry, the unseen prefix its recorded usage gives), so both give the same figures.
 */
export interface SweepTask {
  taskId: number;
  conversationId: string;
  counter: CounterId;
  contextWindow: number;
  strategy: string;
  /** The point: the strategy's full options (`sweepPoints`). */
  options: SweepOptions;
  /** 'offline' (default) or 'remote' (with `remote`): makes every summary of the replay. */
  summarizer: 'offline' | 'remote';
  remote?: RemoteConfig;
  /** Per summary, ms (default 120 s). */
  timeoutMs?: number;
}


/** Pool to worker. */
export type SweepRequest = { type: 'run'; task: SweepTask };

/** Worker to pool: every `run` ends with exactly one reply. */
export type SweepReply =
  | { type: 'done'; taskId: number; figures: SessionFigures }
  | { type: 'failed'; taskId: number; name: string; message: string };

/** The name a sweep worker is started under: the engine worker's entry serves sweep tasks when it has it. */
export const SWEEP_WORKER_NAME = 'foldlab-sweep';

/** What a sweep worker reports to the pool. */
export interface SweepWorkerEvents {
  message(reply: SweepReply): void;
  /** The worker stopped: an uncaught error, a message it could not read. */
  crash(reason: string): void;
}

/** The pool's handle on one sweep worker (a Web Worker in the page, the calling thread in tests). */
export interface SweepWorkerHandle {
  post(request: SweepRequest): void;
  terminate(): void;
}

export type SweepWorkerFactory = (events: SweepWorkerEvents) => SweepWorkerHandle;

/** A sweep worker stopped while it replayed a task. */
export class SweepWorkerCrashedError extends Error {
  override name = 'SweepWorkerCrashedError';
}

/** The sweep was cancelled: the points finished before it are kept. */
export function sweepCancelled(): CancelledError {
  return new CancelledError('Cancelled: the points finished before the cancel are kept.');
}
