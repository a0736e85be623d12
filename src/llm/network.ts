/**
 * Whether the browser is online, as the code that makes requests sees it: the worker's own
 * navigator.onLine and online/offline events, and what the page last told it (the page's events
 * are the reliable ones, so the page forwards them). While offline, a failed request is not tried
 * again: a wait before a retry ends as soon as the browser goes offline.
 */

let pageOnline: boolean | undefined;
const listeners = new Set<() => void>();

function notifyIfOffline(): void {
  if (!isOffline()) return;
  for (const listener of [...listeners]) listener();
}

/** The page's view of the network (it sends navigator.onLine on its online/offline events). */
export function setPageOnline(online: boolean): void {
  pageOnline = online;
  notifyIfOffline();
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

if (typeof globalThis.addEventListener === 'function') globalThis.addEventListener('offline', notifyIfOffline);
