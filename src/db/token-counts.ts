/** Cached token counts: one row per conversation and counter, valid for one import of it. */
import type { CounterId } from '../core/tokens/counters.ts';
import type { FoldlabDatabase, TokenCountRow } from './schema.ts';

/** The cached row if it belongs to the conversation's current import. */
export async function cachedCounts(db: FoldlabDatabase, conversationId: string, counter: CounterId, importId: string): Promise<TokenCountRow | undefined> {
  const row = await db.tokenCounts.get([conversationId, counter]);
  return row && row.importId === importId ? row : undefined;
}

export async function storeCounts(db: FoldlabDatabase, row: TokenCountRow): Promise<void> {
  await db.tokenCounts.put(row);
}
