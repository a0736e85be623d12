/**
 * Count workers that live in the calling thread, for tests of the pool and of the engine with a
 * pool: each is the real count-worker handler (count-pool-serve.ts) behind a MessageChannel, so
 * requests and replies are structured-cloned as between threads. A test can hold a reply back (to
 * make shards finish out of order) and make a worker crash the way a thread does.
 */
import type { CountReply, CountRequest, CountWorkerEvents, CountWorkerFactory } from './count-pool-protocol.ts';
import { countServer } from './count-pool-serve.ts';

/** The real transcripts in public/samples, by path under it. */
export const SAMPLES = [
  'claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl',
  'claude-code/dag_compact_after_rewind.jsonl',
  'codex/schema-coverage.jsonl',
  'openai-chat/gpt-4o-airline.json',
  'pi/large-session.jsonl',
  'pi/v3-small.jsonl',
] as const;

export interface LocalWorker {
  /** Requests received, in order (the entries of a `count` are left out). */
  readonly received: Array<Exclude<CountRequest, { type: 'count' }> | { type: 'count'; taskId: number; entries: number }>;
  terminated: boolean;
  /** Makes the worker stop as a thread does after an uncaught error. */
  crash(reason: string): void;
}

export interface LocalWorkers {
  factory: CountWorkerFactory;
  /** Every worker started, in order. */
  readonly workers: LocalWorker[];
}

export interface LocalWorkerOptions {
  /** Milliseconds to hold a `done` reply of the worker started `index`-th (0-based) for its `task`-th task. Default 0. */
  delayDone?: (index: number, task: number) => number;
}

export function localWorkers(options: LocalWorkerOptions = {}): LocalWorkers {
  const workers: LocalWorker[] = [];
  const factory: CountWorkerFactory = (events: CountWorkerEvents) => {
    const index = workers.length;
    const channel = new MessageChannel();
    let tasks = 0;
    const worker: LocalWorker = {
      received: [],
      terminated: false,
      crash: (reason) => {
        if (!worker.terminated) events.crash(reason);
      },
    };
    const post = (reply: CountReply, transfer: ArrayBuffer[] = []) => {
      if (!worker.terminated) channel.port2.postMessage(reply, transfer);
    };
    const serve = countServer((reply, transfer) => {
      const delay = reply.type === 'done' ? (options.delayDone?.(index, tasks++) ?? 0) : 0;
      if (delay > 0) setTimeout(() => post(reply, transfer), delay);
      else post(reply, transfer);
    });
    channel.port2.onmessage = (event: MessageEvent<CountRequest>) => {
      const request = event.data;
      worker.received.push(request.type === 'count' ? { type: 'count', taskId: request.taskId, entries: request.entries.length } : request);
      serve(request);
    };
    channel.port1.onmessage = (event: MessageEvent<CountReply>) => {
      if (!worker.terminated) events.message(event.data);
    };
    workers.push(worker);
    return {
      post: (request, transfer) => {
        if (!worker.terminated) channel.port1.postMessage(request, transfer ?? []);
      },
      terminate: () => {
        worker.terminated = true;
        channel.port1.close();
        channel.port2.close();
        // A thread's work dies with it; here the count still running is stopped at its next slice.
        for (const request of worker.received) if (request.type === 'count') serve({ type: 'cancel', taskId: request.taskId });
      },
    };
  };
  return { factory, workers };
}
