/**
 * The engine worker's count pool in the browser: one module worker per logical core
 * (navigator.hardwareConcurrency, capped at MAX_POOL_SIZE). None on a single-core machine, where
 * the count is unknown, or where a worker cannot start workers of its own: the engine then counts
 * in place, as before.
 */
import { CountPool } from './count-pool.ts';
import { poolSize, type CountWorkerFactory } from './count-pool-protocol.ts';

const spawnCountWorker: CountWorkerFactory = (events) => {
  const worker = new Worker(new URL('./count-pool.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-count' });
  worker.onmessage = (event) => events.message(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    events.crash(event.message || 'an uncaught error');
  };
  worker.onmessageerror = () => events.crash('a message between the engine and the worker could not be read');
  return {
    post: (request, transfer) => worker.postMessage(request, transfer ?? []),
    terminate: () => worker.terminate(),
  };
};

/** The pool for this browser, or undefined when counting stays in the engine worker. */
export function browserCountPool(): CountPool | undefined {
  if (typeof Worker === 'undefined' || typeof navigator === 'undefined') return undefined;
  const size = poolSize(navigator.hardwareConcurrency);
  return size > 1 ? new CountPool({ spawn: spawnCountWorker, size }) : undefined;
}
