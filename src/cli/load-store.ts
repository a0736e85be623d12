/**
 * An agent's SQLite store on the command line: Cursor's `state.vscdb` (conversations are composers)
 * or opencode's `opencode.db` (sessions), told apart by their tables. A store holds many
 * conversations, the command line reads one: the path alone reads its only top-level conversation;
 * `<store>#<id>` picks one (the conversations it started come with it as subagent threads). A
 * store of several is refused with the newest ones listed, each with the path that reads it.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { isSqliteHeader, type CursorComposer, type CursorStore } from '../core/import/cursor-store.ts';
import { importText } from '../core/import/run.ts';
import type { ImportResult } from '../core/import/types.ts';
import { readAgentStore } from '../sqlite/agent-store.ts';
import { opencodeConversation } from './load-opencode-db.ts';
import { storeConversation } from './store-conversation.ts';

/** Is `path` (without a `#composer` suffix) an SQLite file? */
export function isSqliteFile(path: string): boolean {
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(16);
    return readSync(fd, head, 0, 16, 0) === 16 && isSqliteHeader(head);
  } finally {
    closeSync(fd);
  }
}

/** `store.vscdb#id` (or `opencode.db#id`) split into the file and the conversation, when the file is an SQLite database. */
export function storePath(path: string): { file: string; id?: string } | undefined {
  if (isSqliteFile(path)) return { file: path };
  const hash = path.lastIndexOf('#');
  if (hash <= 0 || !isSqliteFile(path.slice(0, hash))) return undefined;
  return { file: path.slice(0, hash), id: path.slice(hash + 1) };
}

/** One conversation of a Cursor or opencode store, with the conversations it started as threads. */
export async function importSqliteStore(file: string, id?: string): Promise<ImportResult> {
  const name = basename(file);
  const store = await readAgentStore(readFileSync(file), name);
  return store.kind === 'opencode' ? opencodeConversation(file, store.store, id) : cursorConversation(file, store.store, id);
}

function read(composer: CursorComposer): ImportResult {
  return importText(JSON.stringify(composer.document, null, 1), { format: 'cursor', fileName: `${composer.composerId}.json` });
}

/** One conversation of a Cursor chat store, its sub-composers as threads, the store's problems that name it as issues. */
function cursorConversation(file: string, { composers, problems }: CursorStore, composerId?: string): ImportResult {
  return storeConversation(file, composers, {
    noun: 'Cursor conversation',
    missing: 'conversation with composer id',
    idOf: (composer) => composer.composerId,
    read,
    problemsOf: (chosen) => problems.filter((problem) => problem.key.includes(chosen.composerId)),
  }, composerId);
}
