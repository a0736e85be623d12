/**
 * Whether the browser is online, as the code that makes requests sees it: the worker's own
 * navigator.onLine and online/offline events, and what the page last told it (the page's events
 * are the reliable ones, so the page forwards them). A request that fails while offline waits for
 * the network to come back (`waitForOnline`) and is then sent again once (see retry.ts).
 */

let pageOnline: boolean | undefined;
const listeners = new Set<() => void>();
const onlineListeners = new Set<() => void>();

function notifyIfOffline(): void {
  if (!isOffline()) return;
  for (const listener of [...listeners]) listener();
}

function notifyIfOnline(): void {
  if (isOffline()) return;
  for (const listener of [...onlineListeners]) listener();
}

/** The page's view of the network (it sends navigator.onLine on its online/offline events). */
export function setPageOnline(online: boolean): void {
  pageOnline = online;
  notifyIfOffline();
  notifyIfOnline();
}

/** True when either the page or this context says the browser is offline. */
export function isOffline(): boolean {
  return pageOnline === false || (typeof navigator !== 'undefined' && navigator.onLine === false);
}

/** Calls `listener` when the browser goes offline; returns the unsubscribe function. */
export function onOffline(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Resolves once the browser is online (at once if it is), rejects with the signal's reason when it
 * aborts first (the user pressed Cancel).
 */
export function waitForOnline(signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  if (!isOffline()) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      onlineListeners.delete(online);
      signal?.removeEventListener('abort', aborted);
    };
    const online = () => {
      done();
      resolve();
    };
    const aborted = () => {
      done();
      reject(signal!.reason as Error);
    };
    onlineListeners.add(online);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

if (typeof globalThis.addEventListener === 'function') {
  globalThis.addEventListener('offline', notifyIfOffline);
  globalThis.addEventListener('online', notifyIfOnline);
}
