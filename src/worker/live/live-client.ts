/**
 * The page's handle on the live sessions' worker (live.worker.ts): started at the first live
 * session of the tab and kept for the next ones, and started again after it died. A worker that
 * dies (an uncaught error, a message it cannot read) would leave every call waiting on it pending
 * for ever and the engine worker serving the ports to the local model it held, with the model's
 * memory. Instead the dead worker is terminated, each waiting call fails with LiveWorkerLostError,
 * the ports it was given are released in the engine worker by their keys (a MessagePort cannot
 * tell that its other end is gone, so the page keeps the list per worker), and the listeners are
 * told (store/live-actions.ts stops the sessions it ran). The store reaches the live worker
 * through this module only.
 */
import type * as Comlink from 'comlink';
import { restartingWorker, workerLossReason, type WorkerLike } from '../worker-loss.ts';
import type { LiveHostApi } from './live-host.ts';

/** The live sessions' worker stopped: the sessions it ran are stopped; their stored journals are kept. */
export class LiveWorkerLostError extends Error {
  override name = 'LiveWorkerLostError';
}

/** What the client needs of a worker: a Comlink endpoint that can be terminated (a real Worker in the page, a fake in tests). */
export type LiveWorkerLike = WorkerLike;

export interface LiveWorkerClient {
  /** The live worker's host, started on first use and after the worker died. */
  host(): Comlink.Remote<LiveHostApi>;
  /** The current worker is being given the engine's port `key`: released by the page if that worker dies. */
  hold(key: string): void;
  /** The worker let go of the port `key` itself (its session closed, was opened again, or could not start). */
  forget(key: string): void;
  /** Called when a worker died, after its ports were handed to `releasePorts`. */
  onLost(listener: (error: LiveWorkerLostError) => void): () => void;
  /** Posts a raw message to the current worker, if there is one (the test API's crash hook). */
  post(message: unknown): void;
  /** Workers started so far. */
  readonly started: number;
}

/** `releasePorts` asks the engine worker to stop serving the dead worker's ports (its failure is ignored: an engine that died holds none). */
export function createLiveWorkerClient(spawn: () => LiveWorkerLike, releasePorts: (keys: string[]) => Promise<void>): LiveWorkerClient {
  const workers = restartingWorker<LiveHostApi, LiveWorkerLostError>(spawn, (event) => new LiveWorkerLostError(lostMessage(event)));
  /** Keys of the engine worker's ports each live worker holds the other end of. */
  const ports = new WeakMap<WorkerLike, Set<string>>();
  const portsOf = (worker: WorkerLike): Set<string> => {
    let keys = ports.get(worker);
    if (!keys) ports.set(worker, (keys = new Set()));
    return keys;
  };
  // Registered first, so the ports are released before the other listeners hear of the loss.
  workers.onLost((_error, worker) => {
    const keys = [...(ports.get(worker) ?? [])];
    ports.delete(worker);
    if (keys.length > 0) releasePorts(keys).catch(() => undefined);
  });
  return {
    host: () => workers.remote(),
    hold: (key) => void portsOf(workers.worker()).add(key),
    forget: (key) => {
      const worker = workers.current();
      if (worker) ports.get(worker)?.delete(key);
    },
    onLost: (listener) => workers.onLost((error) => listener(error)),
    post: (message) => workers.post(message),
    get started() {
      return workers.started;
    },
  };
}

function lostMessage(event: Event): string {
  const reason = workerLossReason(event);
  return `The live session's worker stopped: ${reason}. Its journal is kept (a reply still being written when it stopped is not). Open the session again to continue.`;
}

/** The page's live worker client: the worker is made at the first live session of the tab and again after it died. */
export function browserLiveWorkerClient(releasePorts: (keys: string[]) => Promise<void>): LiveWorkerClient {
  return createLiveWorkerClient(() => new Worker(new URL('./live.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-live' }), releasePorts);
}
