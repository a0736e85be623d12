/**
 * The library backup file: JSON Lines, a header first, one table row per line, a trailer with the
 * row counts and a checksum of every line last (so a cut-off or changed file is detected, see
 * backup-checksum.ts). Typed arrays and maps are written as tagged objects (`$typed`, `$map`); a
 * key of the data that starts with `$` is written with one more `$`, so transcript content that
 * looks like a tag comes back as it was. Reading checks every line and says which one is wrong
 * and why; nothing here touches a database, so the CLI validates a backup with the same code the
 * page restores it with.
 */
import { checksumMismatch, SectionHasher, webDigest, type BackupChecksum, type Digest } from './backup-checksum.ts';
import { sweepRowProblem } from './backup-sweep-check.ts';

/** The format's version: a reader refuses others than these. */
export const BACKUP_VERSION = 2;
/** Version 1 (no checksum, no escaping of `$` keys) still restores, with a warning. */
const READABLE_VERSIONS = new Set([1, 2]);
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
  /** Saved sweeps (schema v7): a backup made before them has none and still restores. */
  sweeps: ['id'],
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
  /** Absent in version 1 backups. */
  checksum?: BackupChecksum;
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

function isPlainObject(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value) && !(value instanceof Map);
}

function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const name = value.constructor.name as TypedName;
    if (name in TYPED) return { $typed: name, values: Array.from(value as unknown as ArrayLike<number>) };
  }
  if (value instanceof Map) return { $map: [...value.entries()] };
  if (isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'))) {
    // The data's own `$…` keys get one more `$`: only the tags above have a single one.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.startsWith('$') ? `$${key}` : key, item]));
  }
  return value;
}

function tagged(value: Row): unknown {
  const tag = value as { $typed?: unknown; values?: unknown; $map?: unknown };
  const keys = Object.keys(value);
  if (keys.length === 2 && typeof tag.$typed === 'string' && tag.$typed in TYPED && Array.isArray(tag.values)) {
    return TYPED[tag.$typed as TypedName].from(tag.values as number[]);
  }
  if (keys.length === 1 && Array.isArray(tag.$map)) return new Map(tag.$map as Array<[unknown, unknown]>);
  return undefined;
}

/** Version 2: tags, and the data's `$$…` keys back to `$…`. */
function reviver(_key: string, value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((key) => key.startsWith('$'))) return value;
  if (!keys.some((key) => key.startsWith('$$'))) return tagged(value) ?? value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.startsWith('$$') ? key.slice(1) : key, item]));
}

/** Version 1 wrote the data's `$…` keys as they were, so an object shaped like a tag is read as one. */
function reviverV1(_key: string, value: unknown): unknown {
  return isPlainObject(value) ? tagged(value) ?? value : value;
}

export function headerLine(schema: number, exportedAt: number): string {
  const header: BackupHeader = { format: BACKUP_MARKER, version: BACKUP_VERSION, schema, exportedAt };
  return `${JSON.stringify(header)}\n`;
}

export function rowLine(table: BackupTable, row: unknown): string {
  return `${JSON.stringify({ t: table, r: row }, replacer)}\n`;
}

export function trailerLine(counts: Record<BackupTable, number>, checksum: BackupChecksum): string {
  const trailer: BackupTrailer = { end: true, counts, checksum };
  return `${JSON.stringify(trailer)}\n`;
}

function joined(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/**
 * Lines of a UTF-8 byte stream, each decoded strictly (a bad byte is an error naming its line, not
 * U+FFFD). A line's `\r` before its `\n` is dropped.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = stream.getReader();
  /** The current line's bytes so far (a long line spans many chunks). */
  let rest: Uint8Array[] = [];
  let line = 0;
  const decode = (bytes: Uint8Array): string => {
    line++;
    try {
      return decoder.decode(bytes).replace(/\r$/, '');
    } catch {
      throw new BackupFormatError(line, 'this line is not UTF-8 text: the file is not a Foldlab backup, or it is damaged.');
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let start = 0;
      let at: number;
      while ((at = value.indexOf(10, start)) >= 0) {
        rest.push(value.subarray(start, at));
        yield decode(joined(rest));
        rest = [];
        start = at + 1;
      }
      if (start < value.length) rest.push(value.slice(start));
    }
  } finally {
    reader.releaseLock();
  }
  if (rest.length > 0) yield decode(joined(rest));
}

/** Said (page and CLI) of a version 1 backup, which restores without a checksum to check. */
export const UNCHECKED_NOTE = 'This backup was made by an older Foldlab and has no checksum: its rows were checked one by one, but a changed letter inside a row cannot be detected.';

export interface ParsedBackup {
  header: BackupHeader;
  rows: Record<BackupTable, Row[]>;
  /** 'verified': every line matched the end marker's checksum; 'none': a version 1 backup, which has none. */
  checksum: 'verified' | 'none';
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

/** Where each primary key (and, for entries, each entry id) was first seen, to refuse a second row with it. */
class KeyLines {
  private readonly seen = new Map<string, number>();
  private first: BackupFormatError | undefined;

  add(table: BackupTable, row: Row, line: number): void {
    const keys = [`${table} ${JSON.stringify(BACKUP_TABLES[table].map((field) => row[field]))}`];
    if (table === 'entries' && (typeof row.id === 'string' || typeof row.id === 'number')) keys.push(`entry id ${JSON.stringify([row.conversationId, row.id])}`);
    for (const key of keys) {
      const before = this.seen.get(key);
      if (before === undefined) this.seen.set(key, line);
      else this.first ??= new BackupFormatError(line, `lines ${before} and ${line} hold the same ${key.startsWith('entry id') ? `entry id ${JSON.stringify(row.id)}` : `${table} row (key ${key.slice(table.length + 1)})`}: a backup holds each row once.`);
    }
  }

  check(): void {
    if (this.first) throw this.first;
  }
}

function parseLine(text: string, line: number, version: number): unknown {
  try {
    return JSON.parse(text, version === 1 ? reviverV1 : reviver);
  } catch (error) {
    if (error instanceof RangeError) throw new BackupFormatError(line, 'a value nested too deeply to read.');
    throw new BackupFormatError(line, line === 1 ? `not a Foldlab backup: the first line is not JSON (${describe(text)}).` : `not valid JSON (${describe(text)}).`);
  }
}

/**
 * Reads a whole backup and checks it: the header, each row's table and key, each saved sweep's
 * fields (backup-sweep-check.ts), the checksum of every line, no row twice, rows pointing at a
 * conversation of the file, each conversation's entries all there, and the trailer's counts. `digest` is SHA-256 (Web Crypto by default).
 */
export async function parseBackup(lines: AsyncIterable<string>, digest: Digest = webDigest): Promise<ParsedBackup> {
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  const rows = Object.fromEntries(BACKUP_TABLE_NAMES.map((table) => [table, [] as Row[]])) as Record<BackupTable, Row[]>;
  const hasher = new SectionHasher(digest);
  const keys = new KeyLines();
  let line = 0;
  let trailerLineNumber = 0;
  for await (const text of lines) {
    line++;
    if (trailer) {
      if (text.trim() === '') continue;
      throw new BackupFormatError(line, 'text after the end of the backup.');
    }
    const value = parseLine(text, line, header?.version ?? 2);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BackupFormatError(line, `expected a JSON object, got ${describe(text)}.`);
    const object = value as Row;
    if (line === 1) {
      if (object.format !== BACKUP_MARKER) throw new BackupFormatError(1, `not a Foldlab backup: the first line should be its header {"format":"${BACKUP_MARKER}",…}, got ${describe(text)}.`);
      if (!READABLE_VERSIONS.has(object.version as number)) throw new BackupFormatError(1, `backup format version ${String(object.version)}; this Foldlab reads versions ${[...READABLE_VERSIONS].join(' and ')}.`);
      header = object as unknown as BackupHeader;
      hasher.add(text);
      continue;
    }
    if (object.end === true) {
      trailer = object as unknown as BackupTrailer;
      trailerLineNumber = line;
      continue;
    }
    hasher.add(text);
    const table = object.t;
    if (typeof table !== 'string' || !(table in BACKUP_TABLES)) throw new BackupFormatError(line, `unknown table ${JSON.stringify(table)} (expected one of ${BACKUP_TABLE_NAMES.join(', ')}).`);
    const row = object.r;
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw new BackupFormatError(line, `a ${table} line without its row object.`);
    checkKey(table as BackupTable, row as Row, line);
    if (table === 'sweeps') {
      const problem = sweepRowProblem(row as Row);
      if (problem) throw new BackupFormatError(line, `a saved ${problem}`);
    }
    keys.add(table as BackupTable, row as Row, line);
    rows[table as BackupTable].push(row as Row);
  }
  if (!header) throw new BackupFormatError(0, 'the file is empty.');
  if (!trailer) throw new BackupFormatError(line, 'the backup is cut off: its last line is not the end marker with the row counts.');
  const verified = header.version >= 2 || trailer.checksum !== undefined;
  if (verified) {
    if (trailer.checksum === undefined) throw new BackupFormatError(trailerLineNumber, 'the end marker has no checksum (a version 2 backup always has one): the file was changed.');
    const mismatch = checksumMismatch(trailer.checksum, await hasher.checksum());
    if (mismatch) throw new BackupFormatError(mismatch.from, mismatch.problem);
  }
  keys.check();
  for (const table of BACKUP_TABLE_NAMES) {
    const expected = trailer.counts?.[table] ?? 0;
    if (rows[table].length !== expected) throw new BackupFormatError(trailerLineNumber, `the end marker counts ${expected} ${table} rows but the file holds ${rows[table].length}.`);
  }
  checkConsistency(rows);
  return { header, rows, checksum: verified ? 'verified' : 'none' };
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
