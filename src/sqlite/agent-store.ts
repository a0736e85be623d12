/**
 * An agent's SQLite store told apart by its tables, not its name: Cursor's chat store
 * (`state.vscdb`: `cursorDiskKV` / `ItemTable`) or opencode's (`opencode.db`: `session`, `message`,
 * `part`). The page's store reader and the command line read every SQLite file through this.
 */
import type { CursorStore } from '../core/import/cursor-store.ts';
import { isOpencodeTables, type OpencodeStore } from '../core/import/opencode-store.ts';
import { ImportFormatError } from '../core/import/types.ts';
import { CURSOR_WORDING, cursorRowsOf, cursorStoreOf } from './cursor-db.ts';
import { openSqlite, type SqlLoadOptions } from './open.ts';
import { OPENCODE_WORDING, opencodeStoreOf } from './opencode-db.ts';

export type AgentStore = { kind: 'cursor'; store: CursorStore } | { kind: 'opencode'; store: OpencodeStore };

/** Which agent's store these tables make, if any. */
export function storeKind(tables: readonly string[]): AgentStore['kind'] | undefined {
  if (isOpencodeTables(tables)) return 'opencode';
  if (tables.includes('cursorDiskKV') || tables.includes('ItemTable')) return 'cursor';
  return undefined;
}

/** The conversations of a Cursor or opencode store; any other SQLite database is refused with its tables. */
export async function readAgentStore(bytes: Uint8Array, fileName: string, options: SqlLoadOptions = {}): Promise<AgentStore> {
  const wording = /\.vscdb$/i.test(fileName) ? CURSOR_WORDING : /opencode/i.test(fileName) ? OPENCODE_WORDING : { what: 'agent stores', recopy: 'Copy it again with the program that wrote it closed.' };
  const { db, tables } = await openSqlite(bytes, fileName, options, wording);
  try {
    const kind = storeKind(tables);
    if (kind === 'opencode') return { kind, store: opencodeStoreOf(db, tables, fileName) };
    if (kind === 'cursor') return { kind, store: cursorStoreOf(cursorRowsOf(db, tables, fileName), fileName) };
    throw new ImportFormatError(`"${fileName}" is an SQLite database but neither Cursor's state.vscdb (cursorDiskKV, ItemTable tables) nor opencode's opencode.db (session, message, part tables); its tables: ${tables.slice(0, 8).join(', ') || 'none'}.`);
  } finally {
    db.close();
  }
}
