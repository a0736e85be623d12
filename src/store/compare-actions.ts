/**
 * Runs a replay or compare in the engine worker with the summarizer chosen in Settings, mirrors
 * its progress into the store (throttled by the worker); the worker saves the result and answers
 * with its chart-ready view.
 * A failure or a cancel stores nothing and leaves a message the Compare tab shows. A saved
 * comparison is deleted here too.
 */
import type { CompareRequest } from '../worker/compare/compare-protocol.ts';
import { engine, newJobId, proxy } from '../worker/client.ts';
import { errorMessage } from './actions.ts';
import { useAppStore } from './store.ts';
import { summarizerFields } from './summarizer-request.ts';
import { isCancelled } from '../core/cancel.ts';
import { keepRunView } from './compare-reads.ts';
import { deleteComparison as deleteRow } from '../db/comparisons.ts';
import { db } from '../db/db.ts';

const store = () => useAppStore.getState();

/** What the Compare tab sends: everything but the job id and the summarizer (read from Settings at run time). */
export type CompareDraft = Omit<CompareRequest, 'jobId' | 'summarizer' | 'remote' | 'localModelId' | 'localAppConfig'>;

/** Runs the compare; resolves to the saved comparison's id, or undefined when it failed or was cancelled. */
export async function runCompare(draft: CompareDraft, meta: { importId: string; name: string; labels: string[] }): Promise<string | undefined> {
  if (store().compareRun) {
    store().setCompareError({ conversationId: draft.conversationId, message: 'A compare is already running: wait for it or cancel it first.', cancelled: false });
    return undefined;
  }
  const jobId = newJobId('compare');
  store().setCompareError(undefined);
  store().setCompareRun({ jobId, conversationId: draft.conversationId, labels: meta.labels, startedAt: Date.now() });
  try {
    // The key is read from memory at the moment of the run and goes only into this request.
    const request: CompareRequest = { ...draft, ...(await summarizerFields()), jobId };
    // The worker saves the result itself (it is never copied to the page and back to IndexedDB) and
    // answers with the chart-ready view of what it saved: the chart draws without a second request.
    const { id, view } = await engine().compareAndSave(request, { importId: meta.importId, name: meta.name }, proxy((progress) => store().setCompareProgress(progress)));
    keepRunView(view);
    store().openComparison(draft.conversationId, id);
    return id;
  } catch (error) {
    const cancelled = isCancelled(error);
    store().setCompareError({
      conversationId: draft.conversationId,
      message: cancelled ? 'Cancelled: nothing was saved; the previous results are unchanged.' : `The compare failed: ${errorMessage(error)}`,
      cancelled,
    });
    return undefined;
  } finally {
    if (store().compareRun?.jobId === jobId) store().setCompareRun(undefined);
  }
}

export function cancelCompare(): void {
  const run = store().compareRun;
  if (run) void engine().cancel(run.jobId);
}

/** Deletes a saved comparison (the conversation and its other comparisons stay). */
export function deleteComparison(id: string): Promise<void> {
  return deleteRow(db, id);
}
