/**
 * opencode's SQLite store on the command line: `opencode.db` reads its only top-level session,
 * `opencode.db#<sessionId>` picks one; the sessions it started (subagents, by `parent_id`) come
 * with it as threads, and every row the store could not read is an issue of the import.
 */
import type { OpencodeSession } from '../core/import/opencode-folder.ts';
import type { OpencodeStore } from '../core/import/opencode-store.ts';
import { importText } from '../core/import/run.ts';
import type { ImportResult } from '../core/import/types.ts';
import { storeConversation } from './store-conversation.ts';

function read(session: OpencodeSession): ImportResult {
  return importText(JSON.stringify(session.document, null, 1), { format: 'opencode', fileName: `${session.sessionId}.json` });
}

/** One session of the store, its subagent sessions as threads, the store's problems as issues. */
export function opencodeConversation(file: string, { sessions, problems }: OpencodeStore, sessionId?: string): ImportResult {
  return storeConversation(file, sessions, { noun: 'opencode session', missing: 'opencode session with id', idOf: (session) => session.sessionId, read, problemsOf: () => problems }, sessionId);
}
