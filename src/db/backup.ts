/**
 * Library backup and restore. The export reads each table in pages and hands back the file as many
 * small parts (a Blob is made of them), so a large library is never one giant string. A restore
 * reads and checks the whole file first, then writes it in one transaction: a damaged or foreign
 * file changes nothing, and conversations already in the library are not duplicated. A backup
 * restores data only: its code is set aside disabled and its provider settings are applied only
 * on request (backup-trust.ts).
 */
import type { Table } from 'dexie';
import {
  BACKUP_TABLE_NAMES, headerLine, PER_CONVERSATION, parseBackup, readLines, rowLine, trailerLine, withoutSecrets,
  type BackupTable, type ParsedBackup, type Row,
} from './backup-format.ts';
import { SectionHasher } from './backup-checksum.ts';
import { PREFERENCES_KEY, RESTORED_CODE_KEY, restoredPreferences, type CodeKind, type RestoredCode } from './backup-trust.ts';
import { SCHEMA_VERSION, UPGRADE_NOTE, type FoldlabDatabase } from './schema.ts';

/** Rows read per request while exporting. */
const PAGE = 200;
/** A part is handed on once it reaches this many characters (a single larger row is one part). */
export const PART_CHARS = 64 * 1024;

/** Rows whose content is scrubbed of key-like fields on the way out (the data of transcripts is not touched). */
const SCRUBBED = new Set<BackupTable>(['settings', 'comparisons']);

function table(db: FoldlabDatabase, name: BackupTable): Table<Row, unknown> {
  return db.table(name);
}

/**
 * The backup file in parts: the header, each table's rows page by page (one line per row), the
 * trailer with the counts and the checksum of every line. Each part is a short string; `exportBackup` makes a Blob of them.
 */
export async function* backupParts(db: FoldlabDatabase, now = Date.now()): AsyncGenerator<string> {
  const hasher = new SectionHasher();
  const header = headerLine(SCHEMA_VERSION, now);
  hasher.add(header.slice(0, -1));
  yield header;
  const counts = Object.fromEntries(BACKUP_TABLE_NAMES.map((name) => [name, 0])) as Record<BackupTable, number>;
  for (const name of BACKUP_TABLE_NAMES) {
    const source = table(db, name);
    let after: unknown;
    for (;;) {
      const keys = await (after === undefined ? source.orderBy(':id') : source.where(':id').above(after)).limit(PAGE).primaryKeys();
      if (keys.length === 0) break;
      const rows = await source.bulkGet(keys);
      let part = '';
      for (const row of rows) {
        if (!row || (name === 'settings' && row.key === UPGRADE_NOTE)) continue;
        const line = rowLine(name, SCRUBBED.has(name) ? withoutSecrets(row) : row);
        hasher.add(line.slice(0, -1));
        part += line;
        counts[name]++;
        if (part.length >= PART_CHARS) {
          yield part;
          part = '';
        }
      }
      if (part) yield part;
      after = keys[keys.length - 1];
      if (keys.length < PAGE) break;
    }
  }
  yield trailerLine(counts, await hasher.checksum());
}

/** The whole library as one backup file. */
export async function exportBackup(db: FoldlabDatabase, now = Date.now()): Promise<Blob> {
  const parts: string[] = [];
  for await (const part of backupParts(db, now)) parts.push(part);
  return new Blob(parts, { type: 'application/x-ndjson' });
}

/** Reads and checks a backup file (a Blob or File); throws BackupFormatError naming the line. */
export function readBackup(file: Blob): Promise<ParsedBackup> {
  return parseBackup(readLines(file.stream()));
}

export interface RestoreReport {
  /** Conversations added, and those already in the library (left as they are). */
  added: number;
  existing: number;
  /** Rows written per table. */
  written: Record<BackupTable, number>;
  /** Rows left out, and why, in a sentence each. */
  skipped: string[];
  /** Code from the backup set aside, disabled, until the user enables it in this browser. */
  setAside: CodeKind[];
}

export interface RestoreOptions {
  /** Apply the backup's provider settings (base URLs, preset, model) too; the page asks to confirm the endpoints first. Default false. */
  settings?: boolean;
  /** The page's current preferences (`{ state, version }`); default: the library's copy. */
  currentPreferences?: unknown;
}

/**
 * Writes a checked backup into the library in one transaction. A conversation already in the
 * library (same id) keeps its entries; its runs, folds and other rows from the backup are added
 * only when they were made on the same import (else they would point at other entries). Settings
 * from the backup replace the current ones, but for code and provider settings (see
 * backup-trust.ts); judged answers are added.
 */
export async function restoreBackup(db: FoldlabDatabase, backup: ParsedBackup, options: RestoreOptions = {}): Promise<RestoreReport> {
  const names = BACKUP_TABLE_NAMES.map((name) => table(db, name));
  return db.transaction('rw', names, async () => {
    const report: RestoreReport = { added: 0, existing: 0, written: Object.fromEntries(BACKUP_TABLE_NAMES.map((n) => [n, 0])) as Record<BackupTable, number>, skipped: [], setAside: [] };
    /** For each conversation of the backup: 'new', or the import id it has in the library. */
    const fate = new Map<string, 'new' | { importId: unknown; matches: boolean }>();
    for (const conversation of backup.rows.conversations) {
      const current = await db.conversations.get(conversation.id as string);
      if (!current) fate.set(conversation.id as string, 'new');
      else fate.set(conversation.id as string, { importId: current.importId, matches: current.importId === conversation.importId });
    }
    let mismatched = 0;
    for (const [, value] of fate) {
      if (value === 'new') report.added++;
      else {
        report.existing++;
        if (!value.matches) mismatched++;
      }
    }
    if (mismatched > 0) report.skipped.push(`${mismatched} conversation(s) in the library were re-imported since the backup: their runs, folds and pins from the backup were left out.`);
    for (const name of BACKUP_TABLE_NAMES) {
      if (name === 'conversations') {
        const rows = backup.rows.conversations.filter((row) => fate.get(row.id as string) === 'new');
        await table(db, name).bulkPut(rows);
        report.written[name] = rows.length;
        continue;
      }
      let rows = backup.rows[name];
      if (name === 'settings') rows = await trustedSettings(db, rows, backup.header.exportedAt, options, report);
      if (PER_CONVERSATION.has(name)) {
        rows = rows.filter((row) => {
          const f = fate.get(row.conversationId as string);
          if (f === 'new') return true;
          // An existing conversation keeps its own entries and token counts.
          return f !== undefined && f.matches && name !== 'entries' && name !== 'tokenCounts';
        });
      }
      if (name !== 'settings' && rows.length > 0) {
        // Rows already in the library stay as they are.
        const target = table(db, name);
        const keys = rows.map((row) => keyOf(name, row));
        const present = await target.bulkGet(keys);
        rows = rows.filter((_, i) => present[i] === undefined);
      }
      for (let start = 0; start < rows.length; start += 5000) await table(db, name).bulkPut(rows.slice(start, start + 5000));
      report.written[name] = rows.length;
    }
    return report;
  });
}

function keyOf(name: BackupTable, row: Row): unknown {
  switch (name) {
    case 'entries': return [row.conversationId, row.index];
    case 'tokenCounts': return [row.conversationId, row.counter];
    case 'pins': return [row.conversationId, row.entryId];
    case 'dismissedProbes': return [row.conversationId, row.probeId];
    case 'foldSummaries': return [row.conversationId, row.key];
    case 'bookmarks': return [row.conversationId, row.iteration];
    case 'judgements':
    case 'settings': return row.key;
    default: return row.id;
  }
}

/**
 * The backup's settings rows as a restore writes them: the preferences without the backup's code
 * (set aside in RESTORED_CODE_KEY, disabled) and, unless asked, without its provider settings; a
 * backup's own set-aside row is never taken as it is.
 */
async function trustedSettings(db: FoldlabDatabase, rows: Row[], exportedAt: number, options: RestoreOptions, report: RestoreReport): Promise<Row[]> {
  const out: Row[] = [];
  for (const row of rows) {
    if (row.key === UPGRADE_NOTE || row.key === RESTORED_CODE_KEY) continue;
    if (row.key !== PREFERENCES_KEY) {
      out.push(row);
      continue;
    }
    const current = options.currentPreferences ?? (await db.settings.get(PREFERENCES_KEY))?.value;
    const { value, code } = restoredPreferences(row.value, current, options.settings ? { settings: true } : {});
    out.push({ ...row, value });
    if (code.hookSource === undefined && code.pluginSource === undefined) continue;
    const pending = (await db.settings.get(RESTORED_CODE_KEY))?.value as RestoredCode | undefined;
    out.push({ key: RESTORED_CODE_KEY, value: { ...pending, ...code, exportedAt } satisfies RestoredCode });
    if (code.hookSource !== undefined) report.setAside.push('hook');
    if (code.pluginSource !== undefined) report.setAside.push('plugin');
  }
  return out;
}
