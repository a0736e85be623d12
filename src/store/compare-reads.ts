/**
 * The Compare tab's reads of saved comparisons, asked of the engine worker (which decodes the
 * stored rows, so the page never holds a whole result): the list, the opened comparison, and a
 * detail on demand (one compaction, one call's context); a saved comparison's export is read here
 * from the database, in full, only when the user asks for the file. Components call these, never the worker.
 */
import { dismissProbe as dismiss, getComparison, listDismissedProbes, restoreProbes as restore } from '../db/comparisons.ts';
import { db } from '../db/db.ts';
import { engine } from '../worker/client.ts';
import type { ComparisonView } from '../worker/compare/compare-view.ts';
import { comparisonCsv, comparisonJson } from './view/comparison.ts';

/** A conversation's saved comparisons, newest first, without results. */
export function listComparisons(conversationId: string) {
  return engine().listComparisons(conversationId);
}

/** The keys of a conversation's saved comparisons: read in a live query, so a save or delete is seen. */
export function comparisonKeys(conversationId: string) {
  return db.comparisons.where('conversationId').equals(conversationId).primaryKeys();
}

/** The view the last compare's reply carried, until the chart has read it once (then reads go to the worker). */
let justRun: ComparisonView | undefined;

/** Keeps the view a compare's reply carried: opening that comparison next reads it from here. */
export function keepRunView(view: ComparisonView): void {
  justRun = view;
}

export function openComparison(id: string): Promise<ComparisonView | undefined> {
  if (justRun?.id === id) {
    const view = justRun;
    justRun = undefined;
    return Promise.resolve(view);
  }
  return engine().openComparison(id);
}

/** Compaction `index` of configuration `config`, in full. */
export function comparisonCompaction(id: string, config: number, index: number) {
  return engine().comparisonCompaction(id, config, index);
}

/** The context configuration `config` sent at call `call`. */
export function comparisonCallContext(id: string, config: number, call: number) {
  return engine().comparisonCallContext(id, config, call);
}

/** The retention probes the user marked as wrong for a conversation (watched in a live query). */
export function dismissedProbes(conversationId: string) {
  return listDismissedProbes(db, conversationId);
}

export function dismissProbe(conversationId: string, probe: Parameters<typeof dismiss>[2]) {
  return dismiss(db, conversationId, probe);
}

/** Brings back every probe the user dismissed for the conversation. */
export function restoreProbes(conversationId: string) {
  return restore(db, conversationId);
}

/** A saved comparison's export: its name and date, and its JSON (the request without secrets) or CSV (totals and scores). */
export async function comparisonExport(id: string, kind: 'json' | 'csv'): Promise<{ name: string; createdAt: number; text: string }> {
  const row = await getComparison(db, id);
  if (!row) throw new Error('This comparison was deleted: there is nothing to export.');
  return { name: row.name, createdAt: row.createdAt, text: kind === 'json' ? comparisonJson(row) : comparisonCsv(row) };
}
