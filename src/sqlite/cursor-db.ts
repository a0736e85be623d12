/**
 * Reads Cursor's chat store (a `state.vscdb` SQLite file) with sql.js (opened by open.ts): the
 * page's store reader worker and the command line both call it.
 * The rows go to the pure reader (core/import/cursor-store.ts); only the keys holding conversations
 * are queried, never `ItemTable`'s settings or sign-in tokens.
 */
import type { Database } from 'sql.js';
import { CURSOR_CHAT_TABS_KEY, readCursorStore, type CursorStore, type KeyValueRow } from '../core/import/cursor-store.ts';
import { ImportFormatError } from '../core/import/types.ts';
import { eachRow, openSqlite, type SqlLoadOptions, type StoreWording } from './open.ts';

export type { SqlLoadOptions } from './open.ts';

export const CURSOR_WORDING: StoreWording = { what: 'Cursor chat stores', recopy: 'Copy state.vscdb again with Cursor closed.' };

const decoder = new TextDecoder();

/** The conversation rows of a chat store: `composerData:*` and `bubbleId:*` of either table, and the older chat tabs (`ItemTable` `workbench.panel.aichat.view.aichat.chatdata`). */
export async function readCursorRows(bytes: Uint8Array, fileName: string, options: SqlLoadOptions = {}): Promise<KeyValueRow[]> {
  const { db, tables } = await openSqlite(bytes, fileName, options, CURSOR_WORDING);
  try {
    return cursorRowsOf(db, tables, fileName);
  } finally {
    db.close();
  }
}

/** The conversation rows of an opened store; refused when it has neither of Cursor's tables. */
export function cursorRowsOf(db: Database, tables: readonly string[], fileName: string): KeyValueRow[] {
  const stores = tables.filter((name) => name === 'cursorDiskKV' || name === 'ItemTable');
  if (stores.length === 0) {
    throw new ImportFormatError(`"${fileName}" is an SQLite database but not Cursor's state.vscdb: it has no cursorDiskKV or ItemTable table (its tables: ${tables.slice(0, 8).join(', ') || 'none'}).`);
  }
  const rows: KeyValueRow[] = [];
  for (const table of stores) {
    const tabs = table === 'ItemTable' ? ` OR key = '${CURSOR_CHAT_TABS_KEY}'` : '';
    eachRow(db, `SELECT key, value FROM ${table} WHERE key LIKE 'composerData:%' OR key LIKE 'bubbleId:%'${tabs}`, table, fileName, CURSOR_WORDING, ([key, value]) => {
      if (typeof key !== 'string') return;
      rows.push({ key, value: typeof value === 'string' ? value : value instanceof Uint8Array ? decoder.decode(value) : String(value) });
    });
  }
  return rows;
}

/** A chat store's conversations; refused when the file holds none. */
export async function readCursorDatabase(bytes: Uint8Array, fileName: string, options: SqlLoadOptions = {}): Promise<CursorStore> {
  return cursorStoreOf(await readCursorRows(bytes, fileName, options), fileName);
}

/** The conversations of a store's rows; refused when it holds none. */
export function cursorStoreOf(rows: readonly KeyValueRow[], fileName: string): CursorStore {
  const store = readCursorStore(rows);
  if (store.composers.length === 0) {
    const why = store.empty > 0 ? `its ${store.empty} conversation${store.empty === 1 ? ' has' : 's have'} no messages` : `it has no composerData:* key and no chat tab with messages (${CURSOR_CHAT_TABS_KEY})`;
    throw new ImportFormatError(`"${fileName}" holds no Cursor conversation: ${why}. Cursor keeps its chats in the state.vscdb of globalStorage (User/globalStorage/state.vscdb); older versions in each workspace's (User/workspaceStorage/<id>/state.vscdb).`);
  }
  return store;
}
