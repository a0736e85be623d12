/**
 * The one error that means "the user stopped this" (Cancel, Stop, or the job's signal aborting),
 * whatever was stopped: an import, a compaction, a summary request, a compare, a judge run, a fold's
 * model summaries, a live reply. Its message says what was stopped and what is left, so the user
 * reads something specific; code asks `isCancelled(error)` instead of naming a class, and the answer
 * survives the worker boundary, where errors cross as `{ name, message }` (Comlink, and every
 * protocol of ours) and arrive as plain objects or new Error objects with that name.
 *
 * Not a cancel: a hook refusing a compaction (HookRefusedError), or a cancel that came after an
 * import was saved (SavedBeforeCancelError): both say what happened instead.
 */

export const CANCELLED_ERROR_NAME = 'CancelledError';

/** The user stopped the job: `message` says what was stopped and what is kept. */
export class CancelledError extends Error {
  override name = CANCELLED_ERROR_NAME;
  constructor(message = 'Cancelled: nothing was changed.') {
    super(message);
  }
}

/** Whether `error` is a CancelledError, here or after crossing a worker boundary as `{ name, message }`. */
export function isCancelled(error: unknown): boolean {
  if (error instanceof CancelledError) return true;
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === CANCELLED_ERROR_NAME;
}

