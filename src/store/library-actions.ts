/**
 * What the Library panel changes in the library: rename or delete a conversation (a live session of
 * it open in this tab is closed first), bookmark a fold iteration, back the whole library up to one
 * file and restore one (merged; the backup's provider settings only when the user asks, and the
 * restored preferences taken into the page). Components call these, never the database.
 */
import { exportBackup, readBackup, restoreBackup, type RestoreReport } from '../db/backup.ts';
import { UNCHECKED_NOTE, type ParsedBackup } from '../db/backup-format.ts';
import { backupEndpoints } from '../db/backup-trust.ts';
import { deleteConversation, renameConversation } from '../db/conversations.ts';
import { db } from '../db/db.ts';
import { toggleBookmark } from '../db/folds.ts';
import { adoptStoredPreferences, currentPreferences } from './preferences-storage.ts';
import { useAppStore } from './store.ts';

export { backupEndpoints, type BackupEndpoint } from '../db/backup-trust.ts';

/** Gives the conversation a new title (trimmed, at most 200 characters); an empty one is refused with the reason. */
export function renameInLibrary(conversationId: string, title: string): Promise<void> {
  return renameConversation(db, conversationId, title);
}

/** Closes the conversation's live session in this tab, if one is open. */
export type CloseLive = (conversationId: string) => Promise<void>;

/**
 * Closes this tab's live session of the conversation if one is open. The live-session code is
 * loaded on demand only, so the library's first screen does not carry it.
 */
const closeOpenLiveSession: CloseLive = async (conversationId) => {
  const live = await import('./live-actions.ts');
  if (live.isAttached(conversationId)) await live.closeLiveSession(conversationId);
};

/**
 * Deletes the conversation and everything made from it. Its live session in this tab is closed
 * first (its turn stopped, its model port released, its pending writes finished), so a deleted
 * session does not go on calling its model, possibly a paid one, for a journal that is gone.
 */
export async function deleteFromLibrary(conversationId: string, closeLive: CloseLive = closeOpenLiveSession): Promise<void> {
  await closeLive(conversationId);
  await deleteConversation(db, conversationId);
}

/** Bookmarks a fold iteration of the conversation, or removes the bookmark; resolves to whether it is bookmarked now. */
export function toggleFoldBookmark(conversationId: string, iteration: number): Promise<boolean> {
  return toggleBookmark(db, conversationId, iteration);
}

/** The whole library as one backup file (API keys live in another database and are never in it). */
export function backupLibrary(): Promise<Blob> {
  return exportBackup(db);
}

/** Reads a backup file without writing anything; a damaged or foreign file throws the line and the reason. */
export function readBackupFile(file: Blob): Promise<ParsedBackup> {
  return readBackup(file);
}

/** What a restore did, for the Library panel's summary. */
export interface RestoreOutcome {
  report: RestoreReport;
  /** Whether the backup's provider settings were applied, kept out, or it had none. */
  settings: 'applied' | 'kept' | 'none';
  /** Said when the backup had no checksum to verify (a version 1 backup). */
  unchecked?: string;
}

/** Restores `backup` into the library, with its provider settings when `settings`; the page then uses the restored preferences. */
export async function restoreLibrary(backup: ParsedBackup, settings: boolean): Promise<RestoreOutcome> {
  const report = await restoreBackup(db, backup, { settings, currentPreferences: await currentPreferences() });
  if (await adoptStoredPreferences()) await useAppStore.persist.rehydrate();
  const endpoints = backupEndpoints(backup).length > 0;
  return { report, settings: !endpoints ? 'none' : settings ? 'applied' : 'kept', ...(backup.checksum === 'verified' ? {} : { unchecked: UNCHECKED_NOTE }) };
}
