/**
 * Finished fold views kept in the library: a fold of the whole branch (no replay position, no
 * recalls) is stored once made, and the same request after a reload is answered from it without
 * folding again and without asking a model anything.
 */
import { foldViewProvenance } from '../../core/compaction/provenance.ts';
import { foldKey, storedFold, storeFold, FOLD_STORE_VERSION } from '../../db/folds.ts';
import type { ConversationRow, FoldlabDatabase } from '../../db/schema.ts';
import type { FoldRequest, FoldView } from './fold-protocol.ts';

/** The summarizer and model a request names, as stored: `offline`, `remote:<base URL>|<model>`, `webllm:<model>`. */
export function foldSummarizerName(request: FoldRequest): string {
  const kind = request.summarizer ?? 'offline';
  if (kind === 'offline') return 'offline';
  return kind === 'remote' ? `remote:${request.remote?.baseUrl ?? ''}|${request.remote?.model ?? ''}` : `webllm:${request.localModelId ?? ''}`;
}

export class FoldViewStore {
  constructor(private readonly db: FoldlabDatabase) {}

  /** The stored view's id, or undefined for a replay step or a fold with recalls (never stored). */
  private id(conversation: ConversationRow, request: FoldRequest): string | undefined {
    if (request.upToIteration !== undefined || (request.recalls?.length ?? 0) > 0 || request.cachedOnly) return undefined;
    return foldKey(conversation.id, {
      importId: conversation.importId,
      counter: request.counter,
      contextWindow: request.contextWindow,
      ...(request.leafId ? { leafId: request.leafId } : {}),
      ...(request.from ? { from: request.from } : {}),
      options: request.options,
      summarizer: foldSummarizerName(request),
      selfCheck: (request.summarizer ?? 'offline') !== 'offline' && (request.selfCheck ?? false),
    });
  }

  /** The stored view for this request (query hits need the live fold, so a query is never answered here). */
  async read(conversation: ConversationRow, request: FoldRequest): Promise<FoldView | undefined> {
    const id = this.id(conversation, request);
    if (!id || request.query?.trim()) return undefined;
    const row = await storedFold(this.db, id, conversation.importId);
    if (!row) return undefined;
    const { made, reused } = row.view.modelSummaries;
    return { ...row.view, summariesMade: 0, modelSummaries: { made: 0, reused: made + reused }, hits: [], missedRecalls: [], storedAt: row.createdAt };
  }

  /**
   * Stores a view just made. `complete` is false when a model summary failed or was skipped: such a
   * view is not kept, so the next fold asks for the missing ones again.
   */
  async write(conversation: ConversationRow, request: FoldRequest, view: FoldView, complete: boolean, now = Date.now()): Promise<void> {
    const id = this.id(conversation, request);
    if (!id || !complete) return;
    const { hits: _hits, missedRecalls: _missed, storedAt: _at, ...kept } = view;
    try {
      await storeFold(this.db, {
        id, conversationId: conversation.id, importId: conversation.importId, createdAt: now,
        provenance: foldViewProvenance(foldSummarizerName(request), FOLD_STORE_VERSION, view.totalIterations, view.blocks.filter((block) => block.depth === 0).map((block) => block.sourceHash)),
        view: kept,
      });
    } catch (error) {
      // The view itself is fine: say it was not kept rather than fail the fold.
      view.notes.push(`This fold could not be saved in the library (${error instanceof Error ? error.message : String(error)}); it will be folded again after a reload.`);
    }
  }
}
