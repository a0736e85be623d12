/**
 * The IndexedDB schema, every version in one file. One row per journal entry (never rewritten);
 * token counts cached per conversation and counter; small settings. Later versions add the records
 * compaction and folding write (they point at entry ranges, they never copy entries).
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { Entry } from '../core/journal/entry.ts';
import type { FormatId, ImportIssue, SessionMeta } from '../core/import/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { BlockType, Role } from '../core/journal/entry.ts';

export interface ConversationRow {
  id: string;
  title: string;
  format: FormatId;
  fileName: string;
  /** Bytes of the imported file. */
  size: number;
  /** Id of the import that wrote this conversation's current entries. */
  importId: string;
  importedAt: number;
  entryCount: number;
  meta: SessionMeta;
  issues: ImportIssue[];
  lines: number;
  ignoredLines: number;
  /** 'demo' | 'sample' | 'file' */
  origin: 'demo' | 'sample' | 'file';
}

/** A stored entry: the journal entry plus its conversation. Primary key [conversationId+index]. */
export interface EntryRow extends Entry {
  conversationId: string;
}

export interface TokenCountRow {
  conversationId: string;
  counter: CounterId;
  /** The import the counts belong to: counts of an older import are stale. */
  importId: string;
  /** Per-entry totals, in journal order. */
  totals: Uint32Array;
  byRole: Record<Role, number>;
  byKind: Record<BlockType, number>;
  total: number;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export class FoldlabDatabase extends Dexie {
  conversations!: EntityTable<ConversationRow, 'id'>;
  entries!: Table<EntryRow, [string, number]>;
  tokenCounts!: Table<TokenCountRow, [string, CounterId]>;
  settings!: EntityTable<SettingRow, 'key'>;

  constructor(name = 'foldlab') {
    super(name);
    this.version(1).stores({
      conversations: 'id, importedAt',
      entries: '[conversationId+index], conversationId',
      tokenCounts: '[conversationId+counter], conversationId',
      settings: 'key',
    });
  }
}
