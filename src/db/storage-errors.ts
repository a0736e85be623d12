/**
 * Tells "the browser's storage is full" apart from every other database failure. IndexedDB reports
 * it as a `QuotaExceededError` DOMException, and Dexie 4 often hands it over wrapped: a failed
 * transaction rejects with `Dexie.AbortError` whose `inner` is the quota error (a bulk write may
 * wrap it once more). The page shows `StorageFullError` with the usage and a way to free space.
 */

/** The name a storage-full failure carries across the worker boundary (errors cross as {name, message}). */
export const STORAGE_FULL = 'StorageFullError';

/** The browser refused to store more: nothing of the write that hit the limit was kept. */
export class StorageFullError extends Error {
  override name = STORAGE_FULL;
  constructor(what: string, options?: { cause?: unknown }) {
    super(
      `Browser storage is full: ${what} needs more space than this site may use. Nothing of it was saved. ` +
        'Delete conversations you no longer need (export them first if you want to keep them), then try again.',
      options,
    );
  }
}

/** How deep the `inner` / `cause` / `failures` chain is followed: Dexie wraps at most twice in practice. */
const MAX_DEPTH = 5;

/** True when the error, or any error it wraps (Dexie's `inner`, a bulk error's failures, `cause`), is a quota error. */
export function isQuotaError(error: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; code?: unknown; inner?: unknown; cause?: unknown; failures?: unknown; message?: unknown };
  if (e.name === 'QuotaExceededError' || e.name === STORAGE_FULL) return true;
  // Legacy DOMException code of QuotaExceededError (some browsers still set only the code).
  if (typeof DOMException !== 'undefined' && error instanceof DOMException && e.code === 22) return true;
  if (isQuotaError(e.inner, depth + 1) || isQuotaError(e.cause, depth + 1)) return true;
  if (Array.isArray(e.failures) || (e.failures && typeof e.failures === 'object')) {
    return Object.values(e.failures as Record<string, unknown>).some((failure) => isQuotaError(failure, depth + 1));
  }
  return false;
}

/** Rethrows a quota failure as StorageFullError (naming what was being saved); any other error as it is. */
export function asStorageError(error: unknown, what: string): unknown {
  if (error instanceof StorageFullError) return error;
  return isQuotaError(error) ? new StorageFullError(what, { cause: error }) : error;
}

/** What `navigator.storage.estimate()` says, in bytes; undefined where the browser does not tell. */
export interface StorageUsage {
  usage: number;
  quota: number;
}

export async function storageUsage(storage: Pick<StorageManager, 'estimate'> | undefined = globalThis.navigator?.storage): Promise<StorageUsage | undefined> {
  if (!storage?.estimate) return undefined;
  try {
    const { usage, quota } = await storage.estimate();
    return usage !== undefined && quota !== undefined ? { usage, quota } : undefined;
  } catch {
    return undefined;
  }
}

/** "12.3 MB of 20.0 MB (62%)". */
export function formatUsage({ usage, quota }: StorageUsage): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const percent = quota > 0 ? Math.round((usage / quota) * 100) : 100;
  return `${mb(usage)} of ${mb(quota)} (${percent}%)`;
}
