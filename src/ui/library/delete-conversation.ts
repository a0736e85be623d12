/**
 * Deleting a conversation from the library. A live session of it running in this tab is closed
 * first (its turn stopped, its model port released, its pending writes finished), so a deleted
 * session does not go on calling its model, possibly a paid one, for a journal that is gone.
 */
import { deleteConversation } from '../../db/conversations.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';

/** Closes the conversation's live session in this tab, if one is open. Loaded on demand: the library's first screen does not carry the live code. */
export type CloseLive = (conversationId: string) => Promise<void>;

const closeLiveSession: CloseLive = async (conversationId) => {
  const live = await import('../live/live-actions.ts');
  if (live.isAttached(conversationId)) await live.closeLiveSession(conversationId);
};

export async function deleteFromLibrary(db: FoldlabDatabase, conversationId: string, closeLive: CloseLive = closeLiveSession): Promise<void> {
  await closeLive(conversationId);
  await deleteConversation(db, conversationId);
}
