/**
 * The count worker's side of the pool: counts the entries it is sent with the same sliced counter
 * the engine uses in place (countEntriesSliced), reports progress, and sees a cancel between
 * slices. Free of `self` and of `worker_threads`, so the browser worker, a Node thread, the engine
 * worker's own share and an in-process test double all run this same code.
 */
import { getCounter } from '../../core/tokens/counters.ts';
import { countEntriesSliced } from '../../core/tokens/sliced-count.ts';
import type { CountReply, CountRequest, CountWorkerFactory } from './count-pool-protocol.ts';

/** Progress is posted at most this often. Default 50. Unit: ms. */
export const COUNT_PROGRESS_MS = 50;

/**
 * Counting runs this long before the worker lets its message queue run (a cancel gets in then).
 * Default 20. Unit: ms.
 */
export const COUNT_YIELD_MS = 20;

/** Sends a reply to the pool; `transfer` lists buffers moved rather than copied. */
export type PostReply = (reply: CountReply, transfer?: ArrayBuffer[]) => void;

/** Returns the handler for the requests the pool sends this worker. */
export function countServer(post: PostReply): (request: CountRequest) => void {
  const cancelled = new Set<number>();
  return (request) => {
    switch (request.type) {
      case 'warm':
        // Promise.resolve first: an unknown counter id throws rather than rejects.
        Promise.resolve(request.counter).then(getCounter).then(
          () => post({ type: 'ready', counter: request.counter }),
          (error: unknown) => post({ type: 'unavailable', counter: request.counter, message: `the ${request.counter} tables could not be loaded (${error instanceof Error ? error.message : String(error)})` }),
        );
        return;
      case 'cancel':
        cancelled.add(request.taskId);
        return;
      case 'count':
        void countTask(request, cancelled, post).finally(() => cancelled.delete(request.taskId));
    }
  };
}

async function countTask(request: Extract<CountRequest, { type: 'count' }>, cancelled: ReadonlySet<number>, post: PostReply): Promise<void> {
  const { taskId, entries } = request;
  try {
    const counter = await getCounter(request.counter);
    const slices = countEntriesSliced(entries, counter);
    let ranSince = now();
    let reportedAt = ranSince;
    for (;;) {
      if (cancelled.has(taskId)) {
        post({ type: 'cancelled', taskId });
        return;
      }
      const step = slices.next();
      if (step.done) {
        const { totals, byKind, byRole } = step.value;
        post({ type: 'done', taskId, totals, byKind, byRole }, [totals.buffer as ArrayBuffer]);
        return;
      }
      const time = now();
      if (time - reportedAt >= COUNT_PROGRESS_MS) {
        reportedAt = time;
        post({ type: 'progress', taskId, done: step.value.done });
      }
      if (time - ranSince >= COUNT_YIELD_MS) {
        await nextTask();
        ranSince = now();
      }
    }
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    post({ type: 'failed', taskId, name, message: `Counting entries in a worker failed: ${message}` });
  }
}

/**
 * A count worker that is the calling thread itself (the engine worker's own share of a pooled
 * count): the same handler, called directly, with the entries shared rather than copied. Replies
 * arrive in a later microtask, as a worker's would arrive later.
 */
export const inThreadCountWorker: CountWorkerFactory = (events) => {
  let stopped = false;
  const running = new Set<number>();
  const serve = countServer((reply) => {
    if (reply.type === 'done' || reply.type === 'cancelled' || reply.type === 'failed') running.delete(reply.taskId);
    if (!stopped) queueMicrotask(() => events.message(reply));
  });
  return {
    post: (request) => {
      if (stopped) return;
      if (request.type === 'count') running.add(request.taskId);
      serve(request);
    },
    terminate: () => {
      stopped = true;
      for (const taskId of running) serve({ type: 'cancel', taskId });
    },
  };
};

function now(): number {
  return performance.now();
}

/**
 * Resolves in a new task, after the messages already queued (a cancel among them). A message on a
 * fresh channel, because a browser clamps nested `setTimeout(0)` to 4 ms.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
