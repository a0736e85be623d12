/**
 * The IndexedDB schema, every version in one file. One row per journal entry (never rewritten);
 * token counts cached per conversation and counter; small settings; compaction runs and pins (v2),
 * which point at entries by id and never copy them; saved strategy comparisons and the probes a
 * user dismissed as wrong (v3); the judged mode's cached answers and grades (v4); stored fold views,
 * the model's fold summaries (they cost money), bookmarks per conversation and job records (v5);
 * live sessions' settings and folder handles (v6); saved sweeps of a strategy's settings (v7).
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { Entry } from '../core/journal/entry.ts';
import type { FormatId, ImportIssue, SessionMeta } from '../core/import/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { BlockType, Role } from '../core/journal/entry.ts';
import type { CompactionRecord } from '../core/compaction/run.ts';
import type { Plan, PreviousCompaction, StrategyId } from '../core/compaction/types.ts';
import type { JudgeCacheRow } from '../core/replay/judge.ts';
import type { UnseenPrefix } from '../core/replay/recorded-usage.ts';
import type { ComparisonRow } from './comparison-row.ts';
import type { ModelDigestEntry } from '../core/folding/model-enrich.ts';
import type { FoldView } from './fold-row.ts';
import type { FoldProvenance } from '../core/compaction/provenance.ts';
import type { LiveSessionRow } from './live-session-row.ts';
import type { SweepRow } from './sweep-row.ts';

export type { ComparisonRow, StoredCompareRequest } from './comparison-row.ts';

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
  /** The first problems found (at most 1000); `issueCount` says how many there were in all. */
  issues: ImportIssue[];
  /** Problems in all (absent on rows imported before it was recorded: then `issues.length`). */
  issueCount?: number;
  /** Blank lines in the file (absent on older rows). */
  blankLines?: number;
  lines: number;
  ignoredLines: number;
  /** 'demo' | 'sample' | 'file', or 'live' for a live session the app itself records (v6). */
  origin: 'demo' | 'sample' | 'file' | 'live';
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

/** One compaction run: its plan, the context it produced and its log record (B4). */
export interface CompactionRow {
  id: string;
  conversationId: string;
  /** The import the run was made on (a re-import makes older runs stale). */
  importId: string;
  createdAt: number;
  strategy: StrategyId;
  /** Leaf of the branch compacted, and the journal index it was compacted as of. */
  leafId?: string;
  upTo?: number;
  counter: CounterId;
  contextWindow: number;
  plan: Plan;
  /**
   * The context: journal entries by id (never copied), strategy-made entries in full.
   */
  context: StoredContextEntry[];
  summaries: Record<string, string>;
  previous: PreviousCompaction;
  record: CompactionRecord;
  /** Journal index of each input entry, to map plan fates back to the journal. */
  journalIndex: number[];
  /**
   * What every call sent beside the transcript when the run was made (tokens, recorded / estimate /
   * none, the call it was read from): reopening the run states the same "sent = transcript + not
   * in it" figures. Absent on runs stored before it was kept.
   */
  unseenPrefix?: UnseenPrefix;
}

export type StoredContextEntry =
  | { origin: 'journal'; entryId: string }
  | { origin: 'summary' | 'compressed' | 'synthetic'; entry: Entry; replaces?: { fromId: string; toId: string; count: number } };

/** A pinned entry (never summarized, A13). */
export interface PinRow {
  conversationId: string;
  entryId: string;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

/** A retention probe the user marked as wrong for one conversation (v3): left out of later scores. */
export interface DismissedProbeRow {
  conversationId: string;
  probeId: string;
  dismissedAt: number;
  /** What the probe said, so the user can see what they are restoring. */
  category: string;
  text: string;
}

/**
 * A cached answer or grade of the probes' judged mode (v4), keyed by a hash of what it depends on
 * (context text, question, reference, model, prompt versions): judging again costs nothing.
 */
export type JudgementRow = JudgeCacheRow & { createdAt: number };

/** The schema version this code declares (Dexie's number; IndexedDB's is ten times it). */
export const SCHEMA_VERSION = 7;
/** The settings key of the note the v5 and later upgrades write: `{ to, at }`. */
export const UPGRADE_NOTE = 'schema.upgraded';

/**
 * A finished fold view (v5) of one branch with one set of options and summarizer, so a reload
 * shows it without folding again. `id` is a hash of everything the view depends on.
 */
export interface FoldRow {
  id: string;
  conversationId: string;
  /** The import it was folded from: a re-import makes it stale. */
  importId: string;
  createdAt: number;
  provenance: FoldProvenance;
  /** The view as the worker returned it (without query hits, which depend on the query). */
  view: Omit<FoldView, 'hits' | 'missedRecalls'>;
}

/** A model's summary of one folded block (v5): made once, never paid for again. */
export interface FoldSummaryRow {
  conversationId: string;
  /** `modelCacheKey`: source hash, level, summarizer, model, self-check. */
  key: string;
  createdAt: number;
  provenance: FoldProvenance;
  entry: ModelDigestEntry;
}

/** An iteration (0-based) the user bookmarked in one conversation: kept at L0 (v5). */
export interface BookmarkRow {
  conversationId: string;
  iteration: number;
  createdAt: number;
}

/** Multi-step work that spans a model call, so an interrupted one can be offered again (v5). */
export interface JobRow {
  id: string;
  conversationId: string;
  kind: string;
  state: string;
  updatedAt: number;
  [field: string]: unknown;
}

export class FoldlabDatabase extends Dexie {
  conversations!: EntityTable<ConversationRow, 'id'>;
  entries!: Table<EntryRow, [string, number]>;
  tokenCounts!: Table<TokenCountRow, [string, CounterId]>;
  settings!: EntityTable<SettingRow, 'key'>;
  compactions!: EntityTable<CompactionRow, 'id'>;
  pins!: Table<PinRow, [string, string]>;
  comparisons!: EntityTable<ComparisonRow, 'id'>;
  dismissedProbes!: Table<DismissedProbeRow, [string, string]>;
  judgements!: EntityTable<JudgementRow, 'key'>;
  folds!: EntityTable<FoldRow, 'id'>;
  foldSummaries!: Table<FoldSummaryRow, [string, string]>;
  bookmarks!: Table<BookmarkRow, [string, number]>;
  jobs!: EntityTable<JobRow, 'id'>;
  liveSessions!: EntityTable<LiveSessionRow, 'conversationId'>;
  sweeps!: EntityTable<SweepRow, 'id'>;

  constructor(name = 'foldlab') {
    super(name);
    this.version(1).stores({
      conversations: 'id, importedAt',
      entries: '[conversationId+index], conversationId',
      tokenCounts: '[conversationId+counter], conversationId',
      settings: 'key',
    });
    // v2: compaction runs (they point at journal entries by id) and pinned entries.
    this.version(2).stores({
      compactions: 'id, conversationId, [conversationId+createdAt]',
      pins: '[conversationId+entryId], conversationId',
    });
    // v3: saved comparisons (results point at journal entries by id) and dismissed probes.
    this.version(3).stores({
      comparisons: 'id, conversationId, [conversationId+createdAt]',
      dismissedProbes: '[conversationId+probeId], conversationId',
    });
    // v4: the judged mode's cache of model answers and grades, looked up by key only.
    this.version(4).stores({
      judgements: 'key',
    });
    // v5: fold views, model fold summaries and bookmarks (all per conversation), and job records.
    // The upgrade notes when the library was upgraded (a fresh library has no note).
    this.version(5).stores({
      folds: 'id, conversationId',
      foldSummaries: '[conversationId+key], conversationId',
      bookmarks: '[conversationId+iteration], conversationId',
      jobs: '&id, conversationId, kind, state, updatedAt',
    }).upgrade(async (tx) => {
      await tx.table('settings').put({ key: UPGRADE_NOTE, value: { to: 5, at: Date.now() } });
    });
    // v6: one row per live session (src/db/live-sessions.ts): its model, strategy and folder handle.
    this.version(6).stores({
      liveSessions: 'conversationId',
    }).upgrade(async (tx) => {
      await tx.table('settings').put({ key: UPGRADE_NOTE, value: { to: 6, at: Date.now() } });
    });
    // v7: saved sweeps (src/db/sweeps.ts), across sessions, listed newest first.
    this.version(SCHEMA_VERSION).stores({
      sweeps: 'id, createdAt',
    }).upgrade(async (tx) => {
      await tx.table('settings').put({ key: UPGRADE_NOTE, value: { to: SCHEMA_VERSION, at: Date.now() } });
    });
  }
}
