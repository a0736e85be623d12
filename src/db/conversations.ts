/**
 * Conversation repository: commit an import as one unit (all entries or none), rename, delete,
 * and read entries back. Every write is one read-write transaction over the tables it touches.
 */
import { conversationTitle } from '../core/import/title.ts';
import type { ImportResult } from '../core/import/types.ts';
import type { FoldlabDatabase, CompactionRow, ConversationRow, EntryRow } from './schema.ts';
import { saveBatchEnds, type SaveBatchLimits } from './save-batches.ts';
import { asStorageError, isQuotaError } from './storage-errors.ts';
import { CancelledError } from '../core/cancel.ts';

export interface CommitImport {
  /** Replace this conversation's entries (re-import) instead of creating a new one. */
  replaceId?: string;
  fileName: string;
  size: number;
  origin: ConversationRow['origin'];
  title?: string;
  /** Checked between batches: once aborted, the transaction is abandoned and nothing is written. */
  signal?: AbortSignal;
  /** Called after each batch with the entries written so far (in the transaction, not yet committed). */
  onSaved?: (saved: number) => void;
  /** How the entries are cut into batches (rows and estimated size). Defaults in save-batches.ts. */
  batches?: SaveBatchLimits;
}

/**
 * Writes a finished import in one transaction. If anything fails, nothing is written and the
 * conversation being replaced keeps its old entries.
 */
export async function commitImport(db: FoldlabDatabase, result: ImportResult, options: CommitImport): Promise<ConversationRow> {
  const id = options.replaceId ?? crypto.randomUUID();
  const importId = crypto.randomUUID();
  const row: ConversationRow = {
    id,
    title: options.title ?? conversationTitle(result) ?? options.fileName,
    format: result.format,
    fileName: options.fileName,
    size: options.size,
    importId,
    importedAt: Date.now(),
    entryCount: result.entries.length,
    meta: result.meta,
    issues: result.issues.slice(0, 1000),
    issueCount: result.issueCount ?? result.issues.length,
    blankLines: result.blankLines ?? 0,
    lines: result.lines,
    ignoredLines: result.ignoredLines,
    origin: options.origin,
  };
  // Batches cut by size as well as by rows: each takes about as long to write, so the progress bar
  // moves and a Cancel is seen at an even pace even where a few entries hold megabytes.
  const ends = saveBatchEnds(result.entries, options.batches);
  // One IndexedDB transaction: a failure (storage full, a closed tab, a crashed renderer) rolls
  // every row back, so no partial conversation is ever stored.
  await db.transaction('rw', [db.conversations, db.entries, db.tokenCounts, db.compactions, db.pins], async () => {
    if (options.replaceId) {
      const previous = await db.conversations.get(options.replaceId);
      if (previous) row.title = options.title ?? previous.title;
      // Runs and pins point at the old entries by id: they go with them.
      await db.entries.where('conversationId').equals(id).delete();
      await db.tokenCounts.where('conversationId').equals(id).delete();
      await db.compactions.where('conversationId').equals(id).delete();
      await db.pins.where('conversationId').equals(id).delete();
    }
    await db.conversations.put(row);
    let start = 0;
    for (const end of ends) {
      if (options.signal?.aborted) throw new CancelledError('The import was cancelled before it was saved: nothing was written.');
      const rows: EntryRow[] = result.entries.slice(start, end).map((entry) => ({ ...entry, conversationId: id }));
      await db.entries.bulkPut(rows);
      start = end;
      options.onSaved?.(end);
    }
    if (options.signal?.aborted) throw new CancelledError('The import was cancelled before it was saved: nothing was written.');
  }).catch((error: unknown) => {
    throw asStorageError(error, `importing ${options.fileName}`);
  });
  return row;
}

/** The conversation a job worked on was deleted (or re-imported) before its result was stored. */
export class ConversationDeletedError extends Error {
  override name = 'ConversationDeletedError';
}

/**
 * Stores a compaction run only if its conversation still exists with the import the run was made
 * on, checked in the same transaction: a delete or re-import while the run was being summarized
 * leaves no orphaned run, and nothing is written.
 */
export async function commitRun(db: FoldlabDatabase, row: CompactionRow): Promise<void> {
  try {
    await storeRun(db, row);
  } catch (error) {
    // A full disk keeps its own error (the page offers to free space); any other failure says what
    // the failed transaction left behind: nothing.
    if (error instanceof ConversationDeletedError || isQuotaError(error)) throw error;
    throw new Error(`The compaction run could not be stored (${error instanceof Error ? error.message : String(error)}): nothing was stored, the library is as it was before.`, { cause: error });
  }
}

async function storeRun(db: FoldlabDatabase, row: CompactionRow): Promise<void> {
  await db.transaction('rw', [db.conversations, db.compactions], async () => {
    const conversation = await db.conversations.get(row.conversationId);
    if (!conversation) {
      throw new ConversationDeletedError('The conversation was deleted while it was being compacted: the run was not stored and nothing was changed.');
    }
    if (conversation.importId !== row.importId) {
      throw new ConversationDeletedError('The conversation was re-imported while it was being compacted: the run, made on the old entries, was not stored. Run it again on the new import.');
    }
    await db.compactions.add(row);
  });
}

export async function renameConversation(db: FoldlabDatabase, id: string, title: string): Promise<void> {
  const clean = title.trim();
  if (clean.length === 0) throw new Error('A conversation needs a name: the title cannot be empty.');
  await db.conversations.update(id, { title: clean.slice(0, 200) });
}

export async function deleteConversation(db: FoldlabDatabase, id: string): Promise<void> {
  await db.transaction('rw', [db.conversations, db.entries, db.tokenCounts, db.compactions, db.pins, db.comparisons, db.dismissedProbes, db.folds, db.foldSummaries, db.bookmarks, db.jobs, db.liveSessions], async () => {
    await db.entries.where('conversationId').equals(id).delete();
    await db.liveSessions.delete(id);
    // Its interrupted jobs can no longer be resumed (a running job's later state update finds no row).
    await db.jobs.where('conversationId').equals(id).delete();
    await db.folds.where('conversationId').equals(id).delete();
    await db.foldSummaries.where('conversationId').equals(id).delete();
    await db.bookmarks.where('conversationId').equals(id).delete();
    await db.tokenCounts.where('conversationId').equals(id).delete();
    await db.compactions.where('conversationId').equals(id).delete();
    await db.pins.where('conversationId').equals(id).delete();
    await db.comparisons.where('conversationId').equals(id).delete();
    await db.dismissedProbes.where('conversationId').equals(id).delete();
    await db.conversations.delete(id);
  });
}

/** All entries of a conversation in journal order. */
export async function loadEntries(db: FoldlabDatabase, id: string): Promise<EntryRow[]> {
  return db.entries.where('[conversationId+index]').between([id, -Infinity], [id, Infinity]).toArray();
}

/**
 * The same entries read in small slices, one IndexedDB request each, so that decoding a large
 * conversation on the page never holds the main thread in one long task. `from` (default 0) is the
 * first index read: a journal that only grows is read again from where the reader left off.
 */
export async function loadEntriesInSlices(db: FoldlabDatabase, id: string, slice = 150, from = 0): Promise<EntryRow[]> {
  const out: EntryRow[] = [];
  for (let start = from; ; start += slice) {
    const rows = await db.entries.where('[conversationId+index]').between([id, start], [id, start + slice], true, false).toArray();
    out.push(...rows);
    if (rows.length < slice) {
      // Indices are dense (0..n-1), so a short slice is the last one.
      return out;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
