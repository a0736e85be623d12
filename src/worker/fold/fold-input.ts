/**
 * What a fold and a fold simulation both start from: the stored branch of a conversation as
 * compaction input, its iterations, the iteration the request stops at, and each entry's tokens.
 */
import { buildInput } from '../../core/compaction/input.ts';
import type { ReplayFrom } from '../../core/compaction/input-scope.ts';
import { toIterations } from '../../core/folding/iterations.ts';
import { getCounter, type CounterId } from '../../core/tokens/counters.ts';
import { loadEntries } from '../../db/conversations.ts';
import type { ConversationRow, FoldlabDatabase } from '../../db/schema.ts';

export type CountTokens = (conversationId: string, counter: CounterId) => Promise<Uint32Array>;

export interface FoldInputRequest {
  conversationId: string;
  counter: CounterId;
  leafId?: string;
  from?: ReplayFrom;
  contextWindow: number;
  upToIteration?: number;
}

/** The conversation's row, or a clear error when it is gone. */
export async function conversationOf(db: FoldlabDatabase, conversationId: string): Promise<ConversationRow> {
  const conversation = await db.conversations.get(conversationId);
  if (!conversation) throw new Error(`No conversation ${conversationId}: it may have been deleted.`);
  return conversation;
}

export async function loadFoldInput(db: FoldlabDatabase, countTokens: CountTokens, request: FoldInputRequest) {
  const [journal, totals, counter] = await Promise.all([
    loadEntries(db, request.conversationId),
    countTokens(request.conversationId, request.counter),
    getCounter(request.counter),
  ]);
  const built = buildInput(journal, totals, counter, { ...(request.leafId ? { leafId: request.leafId } : {}), ...(request.from ? { from: request.from } : {}), contextWindow: request.contextWindow, now: Date.now() });
  const all = built.input.entries;
  const iterations = toIterations(all);
  const upTo = request.upToIteration !== undefined ? Math.max(0, Math.min(request.upToIteration, iterations.length - 1)) : iterations.length - 1;
  const entries = all.slice(0, (iterations[upTo]?.to ?? -1) + 1);
  const counts = built.journalIndex.map((index) => totals[index] ?? 0);
  return { built, all, iterations, upTo, entries, counts, counter };
}
