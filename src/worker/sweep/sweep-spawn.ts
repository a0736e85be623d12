/**
 * Where the page's sweep workers come from: module workers of the engine worker's bundle started
 * under SWEEP_WORKER_NAME (they serve sweep-serve.ts), one per logical core up to
 * MAX_SWEEP_WORKERS. Imports nothing of the replay, so the page that starts a sweep never loads the
 * engine or a tokenizer itself.
 */
import { MAX_SWEEP_WORKERS } from './sweep-pool.ts';
import { SWEEP_WORKER_NAME, type SweepWorkerFactory } from './sweep-protocol.ts';

/** Workers a sweep gets on a machine with `hardwareConcurrency` logical cores (1 when unknown). */
export function sweepPoolSize(hardwareConcurrency: number | undefined, cap = MAX_SWEEP_WORKERS): number {
  if (hardwareConcurrency === undefined || !Number.isFinite(hardwareConcurrency) || hardwareConcurrency < 1) return 1;
  return Math.max(1, Math.min(Math.floor(hardwareConcurrency), cap));
}

/** Module workers of the engine's bundle, each serving sweep tasks (sweep-serve.ts). */
export const browserSweepWorker: SweepWorkerFactory = (events) => {
  const worker = new Worker(new URL('../engine/engine.worker.ts', import.meta.url), { type: 'module', name: SWEEP_WORKER_NAME });
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
