/**
 * The store's one door to the sweep workers: the page's workers (module workers of the engine's
 * bundle, one per logical core up to MAX_SWEEP_WORKERS, one where no Worker exists) and the pool
 * that hands them a sweep's replays. Node tests hand the pool in-thread workers instead.
 */
import { runSweepPool, type SweepPoolOptions } from './sweep-pool.ts';
import { browserSweepWorker, sweepPoolSize } from './sweep-spawn.ts';

export { runSweepPool };
export type { SweepJob, SweepPoolOptions, SweepPoolOutcome, SweepPoolProgress, SweepShared } from './sweep-pool.ts';
export type { SweepTask, SweepWorkerFactory } from './sweep-protocol.ts';

/** The workers a sweep started from the page gets: how they start and how many at once. */
export function pageSweepWorkers(hardwareConcurrency: number | undefined = globalThis.navigator?.hardwareConcurrency): Pick<SweepPoolOptions, 'spawn' | 'size'> {
  return { spawn: browserSweepWorker, size: typeof Worker === 'undefined' ? 1 : sweepPoolSize(hardwareConcurrency) };
}
