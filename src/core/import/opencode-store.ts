/**
 * opencode's SQLite store (`~/.local/share/opencode/opencode.db`, opencode 1.2 and later; read by
 * src/sqlite/, this module sees only the rows) grouped into one session document each, the same
 * document `opencode export` prints and the storage folder reader builds (opencode-folder.ts).
 *
 * The store keeps what the folder's files held, split into columns: a `session` row per session
 * (`parent_id`, `title`, `version`, `time_created` ...), a `message` row per message and a `part`
 * row per part, each with its JSON `data` (the message or part without its ids, which are columns).
 * Messages are ordered by `time_created` then id, parts by id, as opencode reads them back. A
 * session kept only in the newer `session_message` table is read from there.
 */
import { isRecord } from './builder.ts';
import type { OpencodeSession } from './opencode-folder.ts';
import { sessionMessageDocuments, type DocumentMessage, type SessionMessageRow } from './opencode-session-message.ts';

/** Tables that make an SQLite file opencode's store (its other tables: project, todo, permission ...). */
export const OPENCODE_TABLES = ['session', 'message', 'part'] as const;

/** Does this table list belong to opencode's store? */
export function isOpencodeTables(tables: readonly string[]): boolean {
  return OPENCODE_TABLES.every((table) => tables.includes(table));
}

/** A row of the `session` table: its columns as stored (text, numbers or null). */
export type SessionRow = Record<string, string | number | null>;

/** A row of the `message` or `part` table: its ids, creation time and JSON `data` as text. */
export interface DataRow {
  id: string;
  sessionId: string;
  /** The message a part belongs to (parts only). */
  messageId?: string;
  timeCreated: number;
  data: string;
}

export interface OpencodeStoreRows {
  sessions: SessionRow[];
  messages: DataRow[];
  parts: DataRow[];
  /** Rows of the newer `session_message` table, when the store has it (opencode-session-message.ts). */
  sessionMessages?: SessionMessageRow[];
}

export interface OpencodeStore {
  sessions: OpencodeSession[];
  /** Rows that could not be read, by table and id (`part/prt_…`), and what was wrong. */
  problems: Array<{ key: string; message: string }>;
  /** Sessions with no message (opened and left), left out. */
  empty: number;
}

/** Session columns and where the session document (opencode's `Session.Info`) keeps them. */
const TEXT_COLUMNS: ReadonlyArray<[string, string]> = [['project_id', 'projectID'], ['parent_id', 'parentID'], ['slug', 'slug'], ['directory', 'directory'], ['title', 'title'], ['version', 'version']];

function sessionInfo(row: SessionRow): Record<string, unknown> {
  const info: Record<string, unknown> = { id: row.id };
  for (const [column, key] of TEXT_COLUMNS) if (typeof row[column] === 'string') info[key] = row[column];
  const time: Record<string, number> = {};
  for (const [column, key] of [['time_created', 'created'], ['time_updated', 'updated'], ['time_compacting', 'compacting'], ['time_archived', 'archived']] as const) {
    if (typeof row[column] === 'number') time[key] = row[column];
  }
  info.time = time;
  if (typeof row.share_url === 'string') info.share = { url: row.share_url };
  return info;
}

/** The row's `data` as a JSON object, its ids restored from the columns; else a problem. */
function record(table: string, row: DataRow, problems: OpencodeStore['problems']): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(row.data);
  } catch (error) {
    problems.push({ key: `${table}/${row.id}`, message: `data is not valid JSON (${(error as Error).message}); left out` });
    return undefined;
  }
  if (!isRecord(value)) {
    problems.push({ key: `${table}/${row.id}`, message: `data is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}, expected a JSON object; left out` });
    return undefined;
  }
  const keyOf = table === 'part' ? 'type' : 'role';
  if (typeof value[keyOf] !== 'string') {
    problems.push({ key: `${table}/${row.id}`, message: `data has no string "${keyOf}"; left out` });
    return undefined;
  }
  return { ...value, id: row.id, sessionID: row.sessionId, ...(row.messageId !== undefined ? { messageID: row.messageId } : {}) };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Groups the store's rows into one document per session with its messages and their parts. */
export function readOpencodeStore(rows: OpencodeStoreRows): OpencodeStore {
  const problems: OpencodeStore['problems'] = [];
  const infos = new Map<string, Record<string, unknown>>();
  for (const row of rows.sessions) {
    if (typeof row.id !== 'string' || row.id === '') {
      problems.push({ key: `session/${String(row.id)}`, message: 'has no text id; left out' });
      continue;
    }
    infos.set(row.id, sessionInfo(row));
  }
  const messages = new Map<string, Array<{ id: string; time: number; info: Record<string, unknown> }>>();
  const messageIds = new Set<string>();
  for (const row of [...rows.messages].sort((a, b) => a.timeCreated - b.timeCreated || byId(a, b))) {
    const info = record('message', row, problems);
    if (!info) continue;
    if (!infos.has(row.sessionId)) {
      problems.push({ key: `message/${row.id}`, message: `its session ${row.sessionId} is not in the session table; left out` });
      continue;
    }
    const list = messages.get(row.sessionId) ?? [];
    list.push({ id: row.id, time: row.timeCreated, info });
    messages.set(row.sessionId, list);
    messageIds.add(row.id);
  }
  const parts = new Map<string, Array<Record<string, unknown>>>();
  for (const row of [...rows.parts].sort(byId)) {
    const messageId = row.messageId ?? '';
    if (!messageIds.has(messageId)) {
      problems.push({ key: `part/${row.id}`, message: `its message ${messageId || '(none)'} is not a readable row of the message table; left out` });
      continue;
    }
    const part = record('part', row, problems);
    if (!part) continue;
    const list = parts.get(messageId) ?? [];
    list.push(part);
    parts.set(messageId, list);
  }
  const legacy = new Map([...messages].map(([sessionId, list]) => [sessionId, new Set(list.map((message) => message.id))]));
  const newer = sessionMessageDocuments(rows.sessionMessages ?? [], new Set(infos.keys()), legacy, problems);
  const documentMessages = (sessionId: string): DocumentMessage[] =>
    newer.get(sessionId) ?? (messages.get(sessionId) ?? []).map((message) => ({ info: message.info, parts: parts.get(message.id) ?? [] }));
  const kept = [...infos.entries()].filter(([sessionId]) => messages.has(sessionId) || newer.has(sessionId));
  const sessions = kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([sessionId, info]): OpencodeSession => {
    const parentId = typeof info.parentID === 'string' ? info.parentID : undefined;
    return {
      sessionId,
      name: typeof info.title === 'string' && info.title ? info.title : sessionId,
      ...(parentId ? { parentId } : {}),
      document: { info, messages: documentMessages(sessionId) },
    };
  });
  return { sessions, problems, empty: infos.size - kept.length };
}
