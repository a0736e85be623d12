/**
 * Count workers as Node `worker_threads` threads, for the count pool outside the browser (the bench
 * and the pool's tests): each thread runs bench/pool-thread.ts, the app's count-worker handler.
 */
import { Worker } from 'node:worker_threads';
import type { CountReply, CountWorkerFactory } from '../src/worker/count-pool/count-pool-protocol.ts';

/**
 * Starts a thread running the TypeScript file `file` (a file: URL). tsx's loader does not reach
 * worker threads on Node 20, so the thread runs a small stub that registers tsx through its API and
 * then imports the file.
 */
export function tsThread(file: string): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const stub = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(stub, { eval: true });
}

/** Wires a thread to the pool's events: an uncaught error or an exit the pool did not ask for is a crash. */
export function threadHandle(worker: Worker, events: Parameters<CountWorkerFactory>[0]): ReturnType<CountWorkerFactory> {
  let stopping = false;
  worker.on('message', (reply: CountReply) => events.message(reply));
  worker.on('error', (error: Error) => events.crash(error.message));
  worker.on('messageerror', () => events.crash('a message between the pool and the thread could not be read'));
  worker.on('exit', (code) => {
    if (!stopping) events.crash(`the thread exited with code ${code}`);
  });
  return {
    post: (request, transfer) => worker.postMessage(request, transfer ?? []),
    terminate: () => {
      stopping = true;
      void worker.terminate();
    },
  };
}

/** The factory the pool takes: one count worker per call, as a thread. */
export const threadCountWorker: CountWorkerFactory = (events) =>
  threadHandle(tsThread(new URL('./pool-thread.ts', import.meta.url).href), events);
