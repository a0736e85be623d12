/**
 * Token counting through a Node `worker_threads` Worker, the way the app counts in a Web Worker:
 * the text is posted in (structured clone), counted there, the count posted back. A round trip
 * includes the copy that in-process counting does not pay; `echo` times that copy alone.
 */
import { Worker } from 'node:worker_threads';

export interface CountWorker {
  /** Worker start-up until its rank table is loaded, ms. */
  readonly startMs: number;
  /** Posts `text`, waits for the count; `workerMs`: the count alone, timed inside the worker. */
  count(text: string): Promise<{ tokens: number; workerMs: number }>;
  /** Posts `text`, waits for its length: the round trip without the count. */
  echo(text: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts the worker. tsx's loader does not reach worker threads on Node 20, so the worker is a
 * small JavaScript stub that registers tsx through its API and then imports the TypeScript file.
 */
function spawn(): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const file = new URL('./count-worker.ts', import.meta.url).href;
  const stub = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(stub, { eval: true });
}

function nextMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (value: unknown) => {
      worker.off('error', onError);
      resolve(value);
    };
    const onError = (error: Error) => {
      worker.off('message', onMessage);
      reject(error);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
  });
}

export async function startCountWorker(): Promise<CountWorker> {
  const started = performance.now();
  const worker = spawn();
  try {
    const ready = await nextMessage(worker);
    if (ready !== 'ready') throw new Error(`The count worker sent ${JSON.stringify(ready)} instead of "ready".`);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    startMs: performance.now() - started,
    async count(text) {
      const reply = nextMessage(worker);
      worker.postMessage({ kind: 'count', text });
      const answer = (await reply) as { tokens?: unknown; ms?: unknown };
      if (typeof answer?.tokens !== 'number' || typeof answer.ms !== 'number') throw new Error(`The count worker answered ${JSON.stringify(answer)} instead of a count.`);
      return { tokens: answer.tokens, workerMs: answer.ms };
    },
    async echo(text) {
      const reply = nextMessage(worker);
      worker.postMessage({ kind: 'echo', text });
      const answer = (await reply) as { length?: unknown };
      if (typeof answer?.length !== 'number') throw new Error(`The count worker answered ${JSON.stringify(answer)} instead of a length.`);
      return answer.length;
    },
    async stop() {
      await worker.terminate();
    },
  };
}
