/**
 * Fold persistence: finished fold views by a hash of what they depend on, the model's fold
 * summaries (each paid for once, then read back after any reload), and bookmarks per
 * conversation. The worker writes views and summaries; the page reads and writes bookmarks.
 */
import { fnv1a64 } from '../core/hash.ts';
import type { ModelDigestCache, ModelDigestEntry } from '../core/folding/model-enrich.ts';
import type { BookmarkRow, FoldlabDatabase, FoldRow, FoldSummaryRow } from './schema.ts';

/**
 * Bumped whenever folding itself changes what it produces for the same input, so views stored
 * by an older build are folded again rather than shown.
 */
export const FOLD_STORE_VERSION = 1;

/** What a fold view depends on besides the entries (the import id stands for those). */
export interface FoldKeyParts {
  importId: string;
  counter: string;
  contextWindow: number;
  leafId?: string;
  /** Where the fold starts on the branch (default 'start'). */
  from?: string;
  options: Record<string, unknown>;
  /** 'offline', or the summarizer and model that made the block indexes. */
  summarizer: string;
  selfCheck: boolean;
}

function sorted(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
}

/** The stored view's id: FNV-1a 64 of the parts (option order does not matter). */
export function foldKey(conversationId: string, parts: FoldKeyParts): string {
  return fnv1a64(JSON.stringify([FOLD_STORE_VERSION, conversationId, parts.importId, parts.counter, parts.contextWindow, parts.leafId ?? '', parts.from ?? 'start', sorted(parts.options), parts.summarizer, parts.selfCheck]));
}

/** The stored view `id`, if it was made from the conversation's current import. */
export async function storedFold(db: FoldlabDatabase, id: string, importId: string): Promise<FoldRow | undefined> {
  const row = await db.folds.get(id);
  return row?.importId === importId ? row : undefined;
}

/**
 * Stores a view unless its conversation was deleted or re-imported meanwhile (then it would be an
 * orphan or stale). Returns whether it was stored.
 */
export async function storeFold(db: FoldlabDatabase, row: FoldRow): Promise<boolean> {
  return db.transaction('rw', [db.conversations, db.folds], async () => {
    const conversation = await db.conversations.get(row.conversationId);
    if (conversation?.importId !== row.importId) return false;
    // Views of an earlier import can never be shown again.
    await db.folds.where('conversationId').equals(row.conversationId).filter((stale) => stale.importId !== row.importId).delete();
    await db.folds.put(row);
    return true;
  });
}

/** Every model fold summary stored for a conversation, as the cache `enrichRun` takes. */
export async function loadFoldSummaries(db: FoldlabDatabase, conversationId: string): Promise<ModelDigestCache> {
  const rows = await db.foldSummaries.where('conversationId').equals(conversationId).toArray();
  return new Map(rows.map((row) => [row.key, row.entry]));
}

export async function storeFoldSummary(db: FoldlabDatabase, row: FoldSummaryRow): Promise<void> {
  await db.transaction('rw', [db.conversations, db.foldSummaries], async () => {
    // A summary of a deleted conversation would be an orphan.
    if (await db.conversations.get(row.conversationId)) await db.foldSummaries.put(row);
  });
}

/**
 * A model digest cache that also stores every digest added to it (as `enrichRun` adds them, one by
 * one), so a cancel, a crash or a reload after a paid summary never loses it. `flush` waits for
 * the writes and reports the first that failed.
 */
export class StoredDigestCache extends Map<string, ModelDigestEntry> {
  private readonly pending: Array<Promise<void>> = [];
  private failure: unknown;

  constructor(entries: Iterable<[string, ModelDigestEntry]>, private readonly write: (key: string, entry: ModelDigestEntry) => Promise<void>) {
    super();
    for (const [key, entry] of entries) super.set(key, entry);
  }

  override set(key: string, entry: ModelDigestEntry): this {
    super.set(key, entry);
    this.pending.push(this.write(key, entry).catch((error: unknown) => void (this.failure ??= error)));
    return this;
  }

  async flush(): Promise<void> {
    await Promise.all(this.pending.splice(0));
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  }
}

/** A conversation's bookmarked iterations (0-based), in order. */
export async function listBookmarks(db: FoldlabDatabase, conversationId: string): Promise<number[]> {
  const rows = await db.bookmarks.where('conversationId').equals(conversationId).toArray();
  return rows.map((row) => row.iteration).sort((a, b) => a - b);
}

/** Bookmarks an iteration, or removes the bookmark; returns whether it is bookmarked now. */
export async function toggleBookmark(db: FoldlabDatabase, conversationId: string, iteration: number, now = Date.now()): Promise<boolean> {
  return db.transaction('rw', [db.bookmarks], async () => {
    if (await db.bookmarks.get([conversationId, iteration])) {
      await db.bookmarks.delete([conversationId, iteration]);
      return false;
    }
    const row: BookmarkRow = { conversationId, iteration, createdAt: now };
    await db.bookmarks.put(row);
    return true;
  });
}

