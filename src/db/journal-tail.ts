/**
 * Reading a growing journal again (a live session appends one entry at a time): only the entries
 * after those the page already holds are read, and the held ones are kept as they are, so views
 * that memoize per entry do not redraw the whole journal for each new entry.
 */
import { loadEntriesInSlices } from './conversations.ts';
import type { EntryRow, FoldlabDatabase } from './schema.ts';

/**
 * The conversation's journal, given the entries read before (`held`, in index order, or none).
 * When the stored journal still starts with them (its entry at the last held index has the same
 * id), the result is `held` with the newer entries appended, or `held` itself when there are
 * none; otherwise (a re-import, a rewritten journal) the whole journal is read again.
 */
export async function readGrownJournal(db: FoldlabDatabase, conversationId: string, held?: readonly EntryRow[]): Promise<readonly EntryRow[]> {
  const last = held?.at(-1);
  if (!held || !last || last.index !== held.length - 1) return loadEntriesInSlices(db, conversationId);
  // From the last held entry: it confirms the held ones are still the journal's start.
  const tail = await loadEntriesInSlices(db, conversationId, undefined, last.index);
  if (tail[0]?.id !== last.id) return loadEntriesInSlices(db, conversationId);
  return tail.length === 1 ? held : [...held, ...tail.slice(1)];
}
