/**
 * Saved comparisons read in the worker for the Compare tab: the list without results, the opened
 * result slimmed (compare-view.ts), and on demand one compaction in full or the context of one
 * call, rebuilt here from the stored result. The page never decodes a whole stored result.
 */
import * as Comlink from 'comlink';
import { contextAtCall } from '../../core/replay/call-context.ts';
import { compactionContext } from '../../core/replay/compaction-context.ts';
import type { ContextRef } from '../../core/replay/types.ts';
import { getComparison, listComparisons } from '../../db/comparisons.ts';
import type { ComparisonRow, FoldlabDatabase } from '../../db/schema.ts';
import { comparisonSummary, comparisonView, viewBuffers, type CompactionDetailView, type ComparisonSummary, type ComparisonView } from './compare-view.ts';

export class ComparisonReads {
  /** The comparison opened last: its compactions and calls are asked for one by one. Saved results never change. */
  private last: ComparisonRow | undefined;

  constructor(private readonly db: FoldlabDatabase) {}

  /** A conversation's saved comparisons, newest first, without their results. */
  async list(conversationId: string): Promise<ComparisonSummary[]> {
    return (await listComparisons(this.db, conversationId)).map(comparisonSummary);
  }

  /** The comparison to show, or undefined when it was deleted. */
  async open(id: string): Promise<ComparisonView | undefined> {
    // Read afresh (a rename changes the row), then kept for the details asked next.
    const row = await getComparison(this.db, id);
    if (!row) return undefined;
    this.last = row;
    // The series' buffers are moved to the page (each view is built afresh, nothing here keeps them).
    const view = comparisonView(row);
    return Comlink.transfer(view, viewBuffers(view));
  }

  /** Compaction `index` of configuration `config`, with the context right after it. */
  async compaction(id: string, config: number, index: number): Promise<CompactionDetailView | undefined> {
    const row = await this.row(id);
    const result = row?.result.results[config];
    const compaction = result?.compactions[index];
    if (!row || !result || !compaction) return undefined;
    return { ...compaction, context: compactionContext(result.compactions, index, row.result.entryIds) };
  }

  /**
   * The context configuration `config` sent at call `call`: the last compaction's context (if any)
   * followed by the recorded entries appended since, up to (not including) the entry that answered it.
   */
  async callContext(id: string, config: number, call: number): Promise<ContextRef[]> {
    const row = await this.row(id);
    const result = row?.result.results[config];
    return row && result ? contextAtCall(result, row.result.entryIds, call) : [];
  }

  private async row(id: string): Promise<ComparisonRow | undefined> {
    if (this.last?.id === id) return this.last;
    const row = await getComparison(this.db, id);
    if (row) this.last = row;
    return row;
  }
}
