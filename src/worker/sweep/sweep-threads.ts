/**
 * Where the sweep's workers come from: module workers in the page (one per logical core, at most
 * MAX_SWEEP_WORKERS), or, where no worker can start, the page's own thread replaying the tasks
 * one after another (the same code, slower). The in-thread kind also runs the Node tests.
 */
import type { FoldlabDatabase } from '../../db/schema.ts';
import { MAX_SWEEP_WORKERS } from './sweep-pool.ts';
import type { SweepWorkerFactory } from './sweep-protocol.ts';
import { SweepReplayer, sweepServer, type SweepSummarizers } from './sweep-replay.ts';

/** Workers a sweep gets on a machine with `hardwareConcurrency` logical cores (1 when unknown). */
export function sweepPoolSize(hardwareConcurrency: number | undefined, cap = MAX_SWEEP_WORKERS): number {
  if (hardwareConcurrency === undefined || !Number.isFinite(hardwareConcurrency) || hardwareConcurrency < 1) return 1;
  return Math.max(1, Math.min(Math.floor(hardwareConcurrency), cap));
}

/** A sweep worker that is the calling thread: replies arrive in a later task, as a worker's would. */
export function inThreadSweepWorker(db: FoldlabDatabase, summarizers?: SweepSummarizers): SweepWorkerFactory {
  return (events) => {
    let stopped = false;
    const stop = new AbortController();
    const serve = sweepServer(new SweepReplayer(db, summarizers), (reply) => {
      if (!stopped) setTimeout(() => !stopped && events.message(reply));
    }, stop.signal);
    return {
      post: (request) => {
        if (!stopped) serve(request);
      },
      terminate: () => {
        stopped = true;
        stop.abort();
      },
    };
  };
}

/** Module workers running sweep.worker.ts. */
export const browserSweepWorker: SweepWorkerFactory = (events) => {
  const worker = new Worker(new URL('./sweep.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-sweep' });
  worker.onmessage = (event) => events.message(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    events.crash(event.message || 'an uncaught error');
  };
  worker.onmessageerror = () => events.crash('a message between the page and the worker could not be read');
  return {
    post: (request) => worker.postMessage(request),
    terminate: () => worker.terminate(),
  };
};
