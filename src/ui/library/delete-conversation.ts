/**
 * Deleting a conversation from the Library panel: the store deletes it once this tab's live session
 * of it, if one is open, is closed. The live-session code is loaded on demand only: the library's
 * first screen does not carry it.
 */
import { deleteFromLibrary as deleteWithLiveClosed, type CloseLive } from '../../store/library-actions.ts';

const closeLiveSession: CloseLive = async (conversationId) => {
  const live = await import('../../store/live-actions.ts');
  if (live.isAttached(conversationId)) await live.closeLiveSession(conversationId);
};

export function deleteFromLibrary(conversationId: string): Promise<void> {
  return deleteWithLiveClosed(conversationId, closeLiveSession);
}
