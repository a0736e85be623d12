/**
 * Opening an agent's SQLite store with sql.js, SQLite compiled to WebAssembly: loaded on first use
 * only (a dynamic import), so neither the first screen nor any other import pays for it. Refuses a
 * file too large to hold in memory, one that is no SQLite database, and one cut off or damaged
 * (its table list cannot be read), each with the file's name and what to do.
 */
import type { Database, SqlJsStatic } from 'sql.js';
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

/** Whose store is read, for the messages: "Cursor chat stores", "Copy state.vscdb again with Cursor closed." */
export interface StoreWording {
  what: string;
  recopy: string;
}

let loaded: Promise<SqlJsStatic> | undefined;

function loadSql(options: SqlLoadOptions): Promise<SqlJsStatic> {
  loaded ??= import('sql.js').then(({ default: initSqlJs }) => initSqlJs(options.locateFile ? { locateFile: options.locateFile } : {}));
  return loaded;
}

export interface OpenedStore {
  db: Database;
  tables: string[];
}

/** The database and its table names; the caller closes it. */
export async function openSqlite(bytes: Uint8Array, fileName: string, options: SqlLoadOptions, wording: StoreWording): Promise<OpenedStore> {
  const limit = options.maxBytes ?? MAX_IMPORT_BYTES;
  if (bytes.byteLength > limit) {
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    throw new UnreadableFileError(`"${fileName}" is ${mib(bytes.byteLength)}; Foldlab reads ${wording.what} up to ${mib(limit)} (the whole file is held in memory while it is read).`);
  }
  const SQL = await loadSql(options);
  let db: Database;
  try {
    db = new SQL.Database(bytes);
  } catch (error) {
    throw new ImportFormatError(`"${fileName}" could not be opened as an SQLite database (${(error as Error).message}).`);
  }
  try {
    const tables = (db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? []).map((row) => String(row[0]));
    return { db, tables };
  } catch (error) {
    db.close();
    throw new ImportFormatError(`"${fileName}" is not a readable SQLite database (${(error as Error).message}); it may be cut off or damaged. ${wording.recopy}`);
  }
}

/** Runs a query to its end, a row at a time; a failure names the table and that the file may be damaged. */
export function eachRow(db: Database, sql: string, table: string, fileName: string, wording: StoreWording, row: (values: unknown[]) => void): void {
  let statement;
  try {
    statement = db.prepare(sql);
    while (statement.step()) row(statement.get());
  } catch (error) {
    throw new ImportFormatError(`"${fileName}": the ${table} table could not be read (${(error as Error).message}); the file may be cut off or damaged. ${wording.recopy}`);
  } finally {
    statement?.free();
  }
}
