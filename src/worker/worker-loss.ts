/**
 * A worker the page talks to through Comlink that may die (an uncaught error, a message it cannot
 * read): started on first use, and started again after it died. Without this, every call waiting
 * on a dead worker would stay pending for ever. Instead the dead worker is terminated, each
 * waiting call fails with the client's error, the listeners are told, and the next call starts a
 * fresh worker. The engine's client (client.ts) and the live sessions' (live/live-client.ts)
 * are built on it.
 */
import * as Comlink from 'comlink';

/** What a client needs of a worker: a Comlink endpoint that can be terminated (a real Worker in the page, a fake in tests). */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

export interface RestartingWorker<Api, E extends Error> {
  /** The current worker's API, a worker started first if there is none. */
  remote(): Comlink.Remote<Api>;
  /** The current worker, started first if there is none. */
  worker(): WorkerLike;
  /** The current worker, if one runs (none is started). */
  current(): WorkerLike | undefined;
  /** Posts a raw message to the current worker, if there is one (the test API's crash hooks). */
  post(message: unknown): void;
  /** Called after each loss, with the error the waiting calls received and the dead worker. */
  onLost(listener: (error: E, worker: WorkerLike) => void): () => void;
  /** Workers started so far. */
  readonly started: number;
}

/** `lostError` words the loss for the waiting calls and the listeners, from the worker's `error` or `messageerror` event. */
export function restartingWorker<Api, E extends Error>(spawn: () => WorkerLike, lostError: (event: Event) => E): RestartingWorker<Api, E> {
  let current: { worker: WorkerLike; remote: Comlink.Remote<Api> } | undefined;
  let started = 0;
  const listeners = new Set<(error: E, worker: WorkerLike) => void>();

  function start(): NonNullable<typeof current> {
    const worker = spawn();
    started++;
    const { lost, lose } = lossSignal();
    const state = { worker, remote: settleOnLoss(Comlink.wrap<Api>(worker), lost) };
    const onLoss = (event: Event) => {
      if (current !== state) return;
      current = undefined;
      worker.terminate();
      const error = lostError(event);
      lose(error);
      for (const listener of listeners) listener(error, worker);
    };
    worker.addEventListener('error', onLoss);
    worker.addEventListener('messageerror', onLoss);
    current = state;
    return state;
  }

  return {
    remote: () => (current ?? start()).remote,
    worker: () => (current ?? start()).worker,
    current: () => current?.worker,
    post: (message) => current?.worker.postMessage(message),
    onLost: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get started() {
      return started;
    },
  };
}

/** A promise rejected once, when the worker is lost (never unhandled), and the function that rejects it. */
function lossSignal(): { lost: Promise<never>; lose: (error: Error) => void } {
  let lose: (error: Error) => void = () => undefined;
  const lost = new Promise<never>((_, reject) => {
    lose = reject;
  });
  lost.catch(() => undefined);
  return { lost, lose };
}

/** Every method call of `remote` settles: with the worker's answer, or with `lost`. */
function settleOnLoss<T>(remote: Comlink.Remote<T>, lost: Promise<never>): Comlink.Remote<T> {
  return new Proxy(remote, {
    get(target, prop) {
      // Not a thenable: `await client.remote()` must not call into the worker.
      if (prop === 'then' || typeof prop !== 'string') return undefined;
      const method = (target as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[prop]!;
      return (...args: unknown[]) => Promise.race([method(...args), lost]);
    },
  });
}

/** Why a worker stopped, from its `error` or `messageerror` event. */
export function workerLossReason(event: Event): string {
  return event.type === 'messageerror' ? 'a message between the page and the worker could not be read' : (event as ErrorEvent).message || 'an uncaught error';
}
