/**
 * Memory folding in the worker: fold a stored conversation's branch (optionally as of an earlier
 * iteration, for the replay, which moves forward through a live session), reusing summaries by
 * source hash between runs, and send the page compact arrays for the timeline plus the block
 * index — never the entries themselves.
 */
import { queryHistory, toTimelineData, type FoldedBlock } from '../../core/folding/index.ts';
import type { SummaryCache } from '../../core/folding/types.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import type { FoldBlockView, FoldRequest, FoldSummaryProgress, FoldView } from './fold-protocol.ts';
import { conversationOf, loadFoldInput, type CountTokens } from './fold-input.ts';
import { FoldSessions } from './fold-sessions.ts';
import { FoldSummaries } from './fold-summaries.ts';
import { FoldViewStore } from './fold-store.ts';

export type { FoldBlockView, FoldRequest, FoldView } from './fold-protocol.ts';

export class FoldJobs {
  /** Summaries by source hash, per conversation: replaying or re-folding reuses them (F12). */
  private readonly caches = new Map<string, SummaryCache>();
  private readonly sessions = new FoldSessions();
  /** Whole-branch views kept in the library, read back after a reload. */
  private readonly stored: FoldViewStore;

  constructor(private readonly db: FoldlabDatabase, private readonly countTokens: CountTokens, private readonly summaries = new FoldSummaries()) {
    this.stored = new FoldViewStore(db);
  }

  async fold(request: FoldRequest, signal?: AbortSignal, onProgress?: (progress: FoldSummaryProgress) => void): Promise<FoldView> {
    const conversation = await conversationOf(this.db, request.conversationId);
    const stored = await this.stored.read(conversation, request);
    if (stored) return stored;
    const { built, all, iterations, upTo, entries, counts, counter } = await loadFoldInput(this.db, this.countTokens, request);
    const key = `${conversation.id}|${conversation.importId}|${request.counter}`;
    const raw = { contextWindow: request.contextWindow, ...request.options };
    const cache = this.caches.get(key) ?? new Map();
    this.caches.set(key, cache);
    const sessionKey = `${key}|${request.leafId ?? ''}|${JSON.stringify(raw)}`;
    const live = this.sessions.advance(sessionKey, all, counts, upTo + 1, request.recalls ?? [], raw, cache, counter);
    const extracted = { ...live.session.snapshot(), summariesMade: live.made };
    // Model summaries (when asked for) on the final run only, never on the replay's inner steps.
    const { run, notes, modelSummaries, complete } = await this.summaries.apply(key, extracted, entries, request, raw, counter, signal, onProgress, { db: this.db, conversationId: conversation.id });
    const blocks: FoldBlockView[] = [];
    const flatten = (list: readonly FoldedBlock[], depth: number) => {
      for (const block of list) {
        blocks.push({
          id: block.id, level: block.level, from: block.from, to: block.to, depth,
          title: block.summary.title, content: block.summary.content, outcome: block.summary.outcome,
          keywords: block.keywords, entities: block.entities, stateChanges: block.stateChanges,
          importance: block.retrievability.importance, tokens: block.tokens, text: block.text, sourceHash: block.sourceHash,
          journalFrom: built.journalIndex[block.entryFrom] ?? 0, journalTo: built.journalIndex[block.entryTo] ?? 0,
        });
        flatten(block.children, depth + 1);
      }
    };
    flatten(run.blocks, 0);
    const view: FoldView = {
      timeline: toTimelineData(run),
      blocks,
      events: run.events,
      totalIterations: iterations.length,
      tokensBefore: run.tokensBefore,
      tokensAfter: run.tokensAfter,
      summariesMade: run.summariesMade,
      notes,
      modelSummaries,
      hits: request.query ? queryHistory(run, request.query).map((hit) => ({ blockId: hit.block.id, score: hit.score })) : [],
      retrieved: run.retrieved,
      missedRecalls: live.missed,
      ...(built.note ? { startNote: built.note } : {}),
      scope: built.scope,
    };
    await this.stored.write(conversation, request, view, complete);
    return view;
  }
}
