/**
 * For a subagent's conversation: which session started it, with a button that opens that session
 * when it is in the library, or its id marked as not imported.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { ConversationRow } from '../../db/schema.ts';
import { parentConversation } from '../../store/library-reads.ts';
import { useAppStore } from '../../store/store.ts';
import { subagentNote } from '../library/library-tree.ts';

export function SubagentOf({ conversation }: { conversation: ConversationRow }) {
  const link = conversation.meta.subagent;
  const select = useAppStore((state) => state.select);
  const sessionId = link?.parentSessionId;
  const parent = useLiveQuery(
    () => (sessionId === undefined ? undefined : parentConversation(sessionId)),
    [sessionId],
  );
  if (link === undefined) return null;
  return (
    <p className="muted small" data-testid="conversation.subagent-of">
      {subagentNote(conversation)} · of{' '}
      {parent ? (
        <button type="button" className="link" onClick={() => select(parent.id)} data-testid="conversation.subagent-of.open">{parent.title}</button>
      ) : (
        `session ${sessionId ? sessionId.slice(0, 8) : '(unknown)'} (not imported)`
      )}
    </p>
  );
}
