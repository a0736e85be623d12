/**
 * The library backup file: JSON Lines, a header first, one table row per line, a trailer with the
 * row counts last (so a cut-off file is detected). Typed arrays and maps are written as tagged
 * objects. Reading checks every line and says which one is wrong and why; nothing here touches a
 * database, so the CLI validates a backup with the same code the page restores it with.
 */

/** The format's version: a reader refuses others. */
export const BACKUP_VERSION = 1;
export const BACKUP_MARKER = 'foldlab-backup';

/** Every table a backup holds, with the fields of its primary key (jobs and API keys never go in a backup). */
export const BACKUP_TABLES = {
  conversations: ['id'],
  entries: ['conversationId', 'index'],
  tokenCounts: ['conversationId', 'counter'],
  compactions: ['id', 'conversationId'],
  pins: ['conversationId', 'entryId'],
  comparisons: ['id', 'conversationId'],
  dismissedProbes: ['conversationId', 'probeId'],
  folds: ['id', 'conversationId'],
  foldSummaries: ['conversationId', 'key'],
  bookmarks: ['conversationId', 'iteration'],
  judgements: ['key'],
  settings: ['key'],
} as const satisfies Record<string, readonly string[]>;

export type BackupTable = keyof typeof BACKUP_TABLES;
export const BACKUP_TABLE_NAMES = Object.keys(BACKUP_TABLES) as BackupTable[];
/** Tables whose rows belong to one conversation (through `conversationId`). */
export const PER_CONVERSATION = new Set<BackupTable>(['entries', 'tokenCounts', 'compactions', 'pins', 'comparisons', 'dismissedProbes', 'folds', 'foldSummaries', 'bookmarks']);

export interface BackupHeader {
  format: typeof BACKUP_MARKER;
  version: number;
  /** The database schema version the rows were read from. */
  schema: number;
  exportedAt: number;
}

export interface BackupTrailer {
  end: true;
  counts: Record<BackupTable, number>;
}

export type Row = Record<string, unknown>;

/** A backup that did not read: `line` is 1-based (0 when the problem is the file as a whole). */
export class BackupFormatError extends Error {
  override name = 'BackupFormatError';
  constructor(readonly line: number, problem: string) {
    super(line > 0 ? `Backup line ${line}: ${problem}` : `Backup: ${problem}`);
  }
}

/** Property names never written to a backup, wherever they appear in settings or saved requests. */
const SECRET_NAMES = /^(api[-_]?key|authorization|password|secret|token)$/i;

/** A copy of `value` without properties named like a key or password (settings and saved requests only). */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withoutSecrets(item)) as T;
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out: Row = {};
  for (const [key, item] of Object.entries(value as Row)) if (!SECRET_NAMES.test(key)) out[key] = withoutSecrets(item);
  return out as T;
}

const TYPED = {
  Uint8Array, Uint16Array, Uint32Array, Int8Array, Int16Array, Int32Array, Float32Array, Float64Array,
} as const;
type TypedName = keyof typeof TYPED;

function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const name = value.constructor.name as TypedName;
    if (name in TYPED) return { $typed: name, values: Array.from(value as unknown as ArrayLike<number>) };
  }
  if (value instanceof Map) return { $map: [...value.entries()] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const tagged = value as { $typed?: unknown; values?: unknown; $map?: unknown };
    const keys = Object.keys(value);
    if (keys.length === 2 && typeof tagged.$typed === 'string' && tagged.$typed in TYPED && Array.isArray(tagged.values)) {
      return TYPED[tagged.$typed as TypedName].from(tagged.values as number[]);
    }
    if (keys.length === 1 && Array.isArray(tagged.$map)) return new Map(tagged.$map as Array<[unknown, unknown]>);
  }
  return value;
}

export function headerLine(schema: number, exportedAt: number): string {
  const header: BackupHeader = { format: BACKUP_MARKER, version: BACKUP_VERSION, schema, exportedAt };
  return `${JSON.stringify(header)}\n`;
}

export function rowLine(table: BackupTable, row: unknown): string {
  return `${JSON.stringify({ t: table, r: row }, replacer)}\n`;
}

export function trailerLine(counts: Record<BackupTable, number>): string {
  const trailer: BackupTrailer = { end: true, counts };
  return `${JSON.stringify(trailer)}\n`;
}

/** Lines of a UTF-8 byte stream, decoded strictly (bad bytes are an error, not U+FFFD). */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = stream.getReader();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      rest += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let at: number;
      while ((at = rest.indexOf('\n')) >= 0) {
        yield rest.slice(0, at).replace(/\r$/, '');
        rest = rest.slice(at + 1);
      }
      if (done) break;
    }
  } catch (error) {
    if (error instanceof TypeError) throw new BackupFormatError(0, 'the file is not UTF-8 text: it is not a Foldlab backup, or it is damaged.');
    throw error;
  } finally {
    reader.releaseLock();
  }
  if (rest.length > 0) yield rest;
}

export interface ParsedBackup {
  header: BackupHeader;
  rows: Record<BackupTable, Row[]>;
}

function describe(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function checkKey(table: BackupTable, row: Row, line: number): void {
  for (const field of BACKUP_TABLES[table]) {
    const value = row[field];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new BackupFormatError(line, `a ${table} row without its "${field}" (expected a string or number, got ${value === undefined ? 'nothing' : typeof value}).`);
    }
  }
}

/**
 * Reads a whole backup and checks it: the header, each row's table and key, rows pointing at a
 * conversation of the file, each conversation's entries all there, and the trailer's counts.
 */
export async function parseBackup(lines: AsyncIterable<string>): Promise<ParsedBackup> {
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  const rows = Object.fromEntries(BACKUP_TABLE_NAMES.map((table) => [table, [] as Row[]])) as Record<BackupTable, Row[]>;
  let line = 0;
  for await (const text of lines) {
    line++;
    if (trailer) {
      if (text.trim() === '') continue;
      throw new BackupFormatError(line, 'text after the end of the backup.');
    }
    let value: unknown;
    try {
      value = JSON.parse(text, reviver);
    } catch {
      throw new BackupFormatError(line, line === 1 ? `not a Foldlab backup: the first line is not JSON (${describe(text)}).` : `not valid JSON (${describe(text)}).`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BackupFormatError(line, `expected a JSON object, got ${describe(text)}.`);
    const object = value as Row;
    if (line === 1) {
      if (object.format !== BACKUP_MARKER) throw new BackupFormatError(1, `not a Foldlab backup: the first line should be its header {"format":"${BACKUP_MARKER}",…}, got ${describe(text)}.`);
      if (object.version !== BACKUP_VERSION) throw new BackupFormatError(1, `backup format version ${String(object.version)}; this Foldlab reads version ${BACKUP_VERSION}.`);
      header = object as unknown as BackupHeader;
      continue;
    }
    if (object.end === true) {
      trailer = object as unknown as BackupTrailer;
      continue;
    }
    const table = object.t;
    if (typeof table !== 'string' || !(table in BACKUP_TABLES)) throw new BackupFormatError(line, `unknown table ${JSON.stringify(table)} (expected one of ${BACKUP_TABLE_NAMES.join(', ')}).`);
    const row = object.r;
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw new BackupFormatError(line, `a ${table} line without its row object.`);
    checkKey(table as BackupTable, row as Row, line);
    rows[table as BackupTable].push(row as Row);
  }
  if (!header) throw new BackupFormatError(0, 'the file is empty.');
  if (!trailer) throw new BackupFormatError(line, 'the backup is cut off: its last line is not the end marker with the row counts.');
  for (const table of BACKUP_TABLE_NAMES) {
    const expected = trailer.counts?.[table] ?? 0;
    if (rows[table].length !== expected) throw new BackupFormatError(line, `the end marker counts ${expected} ${table} rows but the file holds ${rows[table].length}.`);
  }
  checkConsistency(rows);
  return { header, rows };
}

function checkConsistency(rows: Record<BackupTable, Row[]>): void {
  const entryCounts = new Map<string, number>();
  for (const conversation of rows.conversations) entryCounts.set(conversation.id as string, 0);
  for (const table of PER_CONVERSATION) {
    for (const row of rows[table]) {
      const id = row.conversationId as string;
      if (!entryCounts.has(id)) throw new BackupFormatError(0, `a ${table} row belongs to conversation ${id}, which is not in the backup.`);
      if (table === 'entries') entryCounts.set(id, (entryCounts.get(id) ?? 0) + 1);
    }
  }
  for (const conversation of rows.conversations) {
    const held = entryCounts.get(conversation.id as string) ?? 0;
    if (held !== conversation.entryCount) throw new BackupFormatError(0, `conversation "${String(conversation.title)}" should have ${String(conversation.entryCount)} entries; the backup holds ${held}.`);
  }
}
