/**
 * The open conversation's reads and its one write from the transcript: the conversation's row and
 * its pinned entries (each read inside a `useLiveQuery`, so a write anywhere shows at once), its
 * journal (read again only past the entries already shown when it grows), and pinning an entry.
 * Components call these instead of opening a table.
 */
import { db } from '../db/db.ts';
import { readGrownJournal } from '../db/journal-tail.ts';
import type { EntryRow } from '../db/schema.ts';

/** The conversation's row, or undefined when it is not (or no longer) in the library. */
export function conversationRow(conversationId: string) {
  return db.conversations.get(conversationId);
}

/** The ids of the conversation's pinned entries. */
export async function pinnedEntryIds(conversationId: string): Promise<Set<string>> {
  const pins = await db.pins.where('conversationId').equals(conversationId).toArray();
  return new Set(pins.map((pin) => pin.entryId));
}

/** Pins the entry, or unpins it when `pinned` says it is pinned now. */
export async function togglePin(conversationId: string, entryId: string, pinned: boolean): Promise<void> {
  if (pinned) await db.pins.delete([conversationId, entryId]);
  else await db.pins.put({ conversationId, entryId });
}

/**
 * The conversation's journal in index order. `shown` are the entries the page holds of it (a
 * growing live journal): when the stored journal still starts with them only the newer ones are
 * read, and `shown` itself comes back when there are none.
 */
export function readJournal(conversationId: string, shown?: readonly EntryRow[]): Promise<readonly EntryRow[]> {
  return readGrownJournal(db, conversationId, shown);
}
