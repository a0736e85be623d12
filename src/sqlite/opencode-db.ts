/**
 * Reads opencode's SQLite store (`opencode.db`, opencode 1.2 and later) with sql.js (opened by
 * open.ts): the page's store reader worker and the command line both call it. The session,
 * message and part rows, and the newer `session_message` rows where the store has them, go to the
 * pure reader (core/import/opencode-store.ts); other tables (project, permission, todo, accounts
 * ...) are never queried.
 */
import type { Database } from 'sql.js';
import { isOpencodeTables, readOpencodeStore, type DataRow, type OpencodeStore, type SessionRow } from '../core/import/opencode-store.ts';
import type { SessionMessageRow } from '../core/import/opencode-session-message.ts';
import { ImportFormatError } from '../core/import/types.ts';
import { eachRow, openSqlite, type SqlLoadOptions, type StoreWording } from './open.ts';

export const OPENCODE_WORDING: StoreWording = { what: 'opencode stores', recopy: 'Copy opencode.db again with opencode closed (or run "opencode export <session>").' };

const decoder = new TextDecoder();
const text = (value: unknown): string => (typeof value === 'string' ? value : value instanceof Uint8Array ? decoder.decode(value) : value === null || value === undefined ? '' : String(value));

/** The session columns a document is made of (every other column, e.g. `permission`, is left). */
const SESSION_COLUMNS = ['id', 'project_id', 'parent_id', 'slug', 'directory', 'title', 'version', 'share_url', 'time_created', 'time_updated', 'time_compacting', 'time_archived'];

function columnsOf(db: Database, table: string): string[] {
  return (db.exec(`PRAGMA table_info(${table})`)[0]?.values ?? []).map((row) => String(row[1]));
}

/** The rows of the newer `session_message` table (`seq` where the store keeps it). */
function sessionMessageRows(db: Database, fileName: string): SessionMessageRow[] {
  const has = new Set(columnsOf(db, 'session_message'));
  const missing = ['id', 'session_id', 'type', 'data'].filter((column) => !has.has(column));
  if (missing.length > 0) throw new ImportFormatError(`"${fileName}": opencode's session_message table has no ${missing.join(', ')} column; this opencode.db is of a version Foldlab does not read.`);
  const created = has.has('time_created') ? 'time_created' : '0';
  const seq = has.has('seq') ? 'seq' : 'NULL';
  const rows: SessionMessageRow[] = [];
  eachRow(db, `SELECT id, session_id, type, ${created}, ${seq}, data FROM session_message`, 'session_message', fileName, OPENCODE_WORDING, ([id, sessionId, type, time, order, data]) => {
    rows.push({ id: text(id), sessionId: text(sessionId), type: text(type), timeCreated: typeof time === 'number' ? time : 0, ...(typeof order === 'number' ? { seq: order } : {}), data: text(data) });
  });
  return rows;
}

/** The sessions of an opened store; refused when it lacks opencode's tables or holds no session with messages. */
export function opencodeStoreOf(db: Database, tables: readonly string[], fileName: string): OpencodeStore {
  if (!isOpencodeTables(tables)) {
    throw new ImportFormatError(`"${fileName}" is an SQLite database but not opencode's opencode.db: it has no session, message and part tables (its tables: ${tables.slice(0, 8).join(', ') || 'none'}).`);
  }
  const sessionColumns = columnsOf(db, 'session').filter((column) => SESSION_COLUMNS.includes(column));
  for (const [table, needed] of [['session', ['id']], ['message', ['id', 'session_id', 'data']], ['part', ['id', 'message_id', 'data']]] as const) {
    const have = table === 'session' ? sessionColumns : columnsOf(db, table);
    const missing = needed.filter((column) => !have.includes(column));
    if (missing.length > 0) throw new ImportFormatError(`"${fileName}": opencode's ${table} table has no ${missing.join(', ')} column; this opencode.db is of a version Foldlab does not read.`);
  }
  const sessions: SessionRow[] = [];
  eachRow(db, `SELECT ${sessionColumns.join(', ')} FROM session`, 'session', fileName, OPENCODE_WORDING, (values) => {
    const row: SessionRow = {};
    sessionColumns.forEach((column, i) => {
      const value = values[i];
      row[column] = typeof value === 'number' || typeof value === 'string' || value === null ? value : text(value);
    });
    sessions.push(row);
  });
  const dataRows = (table: 'message' | 'part'): DataRow[] => {
    const rows: DataRow[] = [];
    const has = new Set(columnsOf(db, table));
    const created = has.has('time_created') ? 'time_created' : '0';
    const session = has.has('session_id') ? 'session_id' : "''";
    const message = table === 'part' ? ', message_id' : '';
    eachRow(db, `SELECT id, ${session}, ${created}, data${message} FROM ${table}`, table, fileName, OPENCODE_WORDING, ([id, sessionId, time, data, messageId]) => {
      rows.push({ id: text(id), sessionId: text(sessionId), timeCreated: typeof time === 'number' ? time : 0, data: text(data), ...(table === 'part' ? { messageId: text(messageId) } : {}) });
    });
    return rows;
  };
  const messages = dataRows('message');
  const parts = dataRows('part');
  const sessionMessages = tables.includes('session_message') ? sessionMessageRows(db, fileName) : [];
  const store = readOpencodeStore({ sessions, messages, parts, sessionMessages });
  if (store.sessions.length === 0) {
    const why = store.empty > 0 ? `its ${store.empty} session${store.empty === 1 ? ' has' : 's have'} no readable message` : 'its session table is empty';
    throw new ImportFormatError(`"${fileName}" holds no opencode conversation: ${why}. opencode keeps its sessions in ~/.local/share/opencode/opencode.db.`);
  }
  return store;
}

/** An opencode.db file's sessions. */
export async function readOpencodeDatabase(bytes: Uint8Array, fileName: string, options: SqlLoadOptions = {}): Promise<OpencodeStore> {
  const { db, tables } = await openSqlite(bytes, fileName, options, OPENCODE_WORDING);
  try {
    return opencodeStoreOf(db, tables, fileName);
  } finally {
    db.close();
  }
}
