/**
 * The page's handle on the engine worker: created lazily, and created again after a crash.
 * Callbacks are proxied so progress reaches the page; errors arrive as Error objects carrying the
 * worker's name and message. A worker that dies (an uncaught error, or a message it cannot read)
 * would otherwise leave every waiting call pending for ever: instead each of them fails with
 * WorkerCrashedError, the dead worker is terminated, and the next call starts a fresh one.
 */
import * as Comlink from 'comlink';
import type { EngineApi } from './engine/protocol.ts';
import { restartingWorker, workerLossReason, type WorkerLike } from './worker-loss.ts';

export type { WorkerLike } from './worker-loss.ts';

/** The engine worker stopped while jobs were waiting on it. */
export class WorkerCrashedError extends Error {
  override name = 'WorkerCrashedError';
}

export interface EngineClient {
  /** The engine of the live worker, started on first use and after a crash. */
  engine(): Comlink.Remote<EngineApi>;
  /** Posts a raw message to the live worker, if there is one (the test API's crash hook uses it). */
  post(message: unknown): void;
  /** Called after each crash, with the error the waiting calls received. */
  onCrash(listener: (error: WorkerCrashedError) => void): () => void;
  /** Workers started so far. */
  readonly started: number;
}

export function createEngineClient(spawn: () => WorkerLike): EngineClient {
  const workers = restartingWorker<EngineApi, WorkerCrashedError>(spawn, (event) => new WorkerCrashedError(crashMessage(event)));
  return {
    engine: () => workers.remote(),
    post: (message) => workers.post(message),
    onCrash: (listener) => workers.onLost((error) => listener(error)),
    get started() {
      return workers.started;
    },
  };
}

function crashMessage(event: Event): string {
  const reason = workerLossReason(event);
  return `The Foldlab engine (the background worker that imports, counts and compacts) stopped unexpectedly: ${reason}. The jobs it was running were stopped and nothing half-done was stored. It has been restarted: run the job again.`;
}

const client = createEngineClient(() => new Worker(new URL('./engine/engine.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-engine' }));
let toldOnline = 0;

/** Tells the worker whether the page is online (its events are the reliable ones); again after a restart. */
function tellOnline(remote: Comlink.Remote<EngineApi>): void {
  if (typeof navigator === 'undefined') return;
  void remote.setOnline(navigator.onLine).catch(() => undefined);
}

export function engine(): Comlink.Remote<EngineApi> {
  const remote = client.engine();
  if (toldOnline !== client.started) {
    toldOnline = client.started;
    tellOnline(remote);
  }
  return remote;
}

if (typeof window !== 'undefined') {
  const onChange = () => {
    if (client.started > 0) tellOnline(engine());
  };
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
}

/** Test-only (the test API's crashEngine): makes the live worker throw an uncaught error, as a real crash would. */
export function crashEngineForTest(): void {
  client.post({ foldlabTest: 'crash' });
}

/** The page's engine client (crash listeners, the test API). */
export const engineClient: EngineClient = client;

export const proxy = Comlink.proxy;

/** A job id unique within this page. */
export function newJobId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}
