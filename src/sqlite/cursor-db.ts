/**
 * Reads Cursor's chat store (a `state.vscdb` SQLite file) with sql.js, SQLite compiled to
 * WebAssembly: the page's Cursor reader worker and the command line both call it, and each loads
 * sql.js only then (a dynamic import), so neither the first screen nor any other import pays for it.
 * The rows go to the pure reader (core/import/cursor-store.ts); only the keys holding conversations
 * are queried, never `ItemTable`'s settings or sign-in tokens.
 */
import type { SqlJsStatic } from 'sql.js';
import { readCursorStore, type CursorStore, type KeyValueRow } from '../core/import/cursor-store.ts';
import { ImportFormatError, MAX_IMPORT_BYTES, UnreadableFileError } from '../core/import/types.ts';

/** Where sql.js finds its .wasm: the page passes its own asset URL, Node finds it beside the module. */
export interface SqlLoadOptions {
  locateFile?: (file: string) => string;
  /**
   * Largest store read. sql.js holds the whole file in WebAssembly memory beside the bytes read,
   * so a store takes about twice its size. Default `MAX_IMPORT_BYTES` (500 MB). Unit: bytes.
   */
  maxBytes?: number;
}

let loaded: Promise<SqlJsStatic> | undefined;

function loadSql(options: SqlLoadOptions): Promise<SqlJsStatic> {
  loaded ??= import('sql.js').then(({ default: initSqlJs }) => initSqlJs(options.locateFile ? { locateFile: options.locateFile } : {}));
  return loaded;
}

const decoder = new TextDecoder();

/** The conversation rows of a chat store: `composerData:*` and `bubbleId:*` of either table. */
export async function readCursorRows(bytes: Uint8Array, fileName: string, options: SqlLoadOptions = {}): Promise<KeyValueRow[]> {
  const limit = options.maxBytes ?? MAX_IMPORT_BYTES;
  if (bytes.byteLength > limit) {
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    throw new UnreadableFileError(`"${fileName}" is ${mib(bytes.byteLength)}; Foldlab reads Cursor chat stores up to ${mib(limit)} (the whole file is held in memory while it is read).`);
  }
  const SQL = await loadSql(options);
  let db;
  try {
    db = new SQL.Database(bytes);
  } catch (error) {
    throw new ImportFormatError(`"${fileName}" could not be opened as an SQLite database (${(error as Error).message}).`);
  }
  try {
    let tables: string[];
    try {
      tables = (db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? []).map((row) => String(row[0]));
    } catch (error) {
      throw new ImportFormatError(`"${fileName}" is not a readable SQLite database (${(error as Error).message}); it may be cut off or damaged. Copy state.vscdb again with Cursor closed.`);
    }
    const stores = tables.filter((name) => name === 'cursorDiskKV' || name === 'ItemTable');
    if (stores.length === 0) {
      throw new ImportFormatError(`"${fileName}" is an SQLite database but not Cursor's state.vscdb: it has no cursorDiskKV or ItemTable table (its tables: ${tables.slice(0, 8).join(', ') || 'none'}).`);
    }
    const rows: KeyValueRow[] = [];
    for (const table of stores) {
      let statement;
      try {
        statement = db.prepare(`SELECT key, value FROM ${table} WHERE key LIKE 'composerData:%' OR key LIKE 'bubbleId:%'`);
        while (statement.step()) {
          const [key, value] = statement.get();
          if (typeof key !== 'string') continue;
          rows.push({ key, value: typeof value === 'string' ? value : value instanceof Uint8Array ? decoder.decode(value) : String(value) });
        }
      } catch (error) {
        throw new ImportFormatError(`"${fileName}": the ${table} table could not be read (${(error as Error).message}); the file may be cut off or damaged. Copy state.vscdb again with Cursor closed.`);
      } finally {
        statement?.free();
      }
    }
    return rows;
  } finally {
    db.close();
  }
}

/** A chat store's conversations; refused when the file holds none. */
export async function readCursorDatabase(bytes: Uint8Array, fileName: string, options: SqlLoadOptions = {}): Promise<CursorStore> {
  const store = readCursorStore(await readCursorRows(bytes, fileName, options));
  if (store.composers.length === 0) {
    const why = store.empty > 0 ? `its ${store.empty} composer${store.empty === 1 ? ' has' : 's have'} no messages` : 'it has no composerData:* key';
    throw new ImportFormatError(`"${fileName}" holds no Cursor conversation: ${why}. Cursor keeps its chats in the state.vscdb of globalStorage (User/globalStorage/state.vscdb).`);
  }
  return store;
}
