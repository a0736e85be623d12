/**
 * What the page's worker clients (the engine's, client.ts; the live sessions', live-worker-client.ts)
 * share about a worker that dies: calls that settle when it does, instead of waiting for ever, and
 * the words for why it stopped.
 */
import type * as Comlink from 'comlink';

/** What a client needs of a worker: a Comlink endpoint that can be terminated (a real Worker in the page, a fake in tests). */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

/** A promise rejected once, when the worker is lost (never unhandled), and the function that rejects it. */
export function lossSignal<E extends Error>(): { lost: Promise<never>; lose: (error: E) => void } {
  let lose: (error: E) => void = () => undefined;
  const lost = new Promise<never>((_, reject) => {
    lose = reject;
  });
  lost.catch(() => undefined);
  return { lost, lose };
}

/** Every method call of `remote` settles: with the worker's answer, or with `lost`. */
export function settleOnLoss<T>(remote: Comlink.Remote<T>, lost: Promise<never>): Comlink.Remote<T> {
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
