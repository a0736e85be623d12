/**
 * Live session repository: a live session is a conversation like an imported one (format 'pi',
 * origin 'live'), whose journal grows one entry at a time as the agent runs. Each entry is written
 * in its own transaction the moment it is made, and the conversation's `importId` changes with it
 * (the journal's version: cached counts and fold views of the shorter journal become stale). The
 * compactions the loop makes are stored as runs, so the Runs view lists them.
 */
import type { Entry } from '../core/journal/entry.ts';
import type { LiveSessionConfig, LiveSessionRow } from './live-session-row.ts';
import type { CompactionRow, ConversationRow, FoldlabDatabase } from './schema.ts';
import { asStorageError } from './storage-errors.ts';

export interface NewLiveSession {
  title: string;
  config: LiveSessionConfig;
  folder: LiveSessionRow['folder'];
  /** Model name for the conversation's meta (absent for a scripted model). */
  model?: string;
}

/** The conversation row and its live-session row, written together. */
export async function createLiveSession(db: FoldlabDatabase, session: NewLiveSession, now = Date.now()): Promise<ConversationRow> {
  const id = crypto.randomUUID();
  const row: ConversationRow = {
    id,
    title: session.title,
    format: 'pi',
    fileName: `${session.folder.name} (live)`,
    size: 0,
    importId: crypto.randomUUID(),
    importedAt: now,
    entryCount: 0,
    meta: { title: session.title, cwd: session.folder.name, ...(session.model ? { model: session.model } : {}) },
    issues: [],
    issueCount: 0,
    blankLines: 0,
    lines: 0,
    ignoredLines: 0,
    origin: 'live',
  };
  await db.transaction('rw', [db.conversations, db.liveSessions], async () => {
    await db.conversations.add(row);
    await db.liveSessions.add({ conversationId: id, createdAt: now, config: session.config, folder: session.folder });
  }).catch((error: unknown) => {
    throw asStorageError(error, 'starting a live session');
  });
  return row;
}

/** The conversation was deleted while its live session ran: the entry was not stored. */
export class LiveSessionGoneError extends Error {
  override name = 'LiveSessionGoneError';
}

/**
 * Appends one journal entry. Its index must be the next one (entries are never rewritten): a
 * different index means the journal in memory and the stored one diverged, and nothing is written.
 */
export async function appendLiveEntry(db: FoldlabDatabase, conversationId: string, entry: Entry): Promise<void> {
  await db.transaction('rw', [db.conversations, db.entries], async () => {
    const conversation = await db.conversations.get(conversationId);
    if (!conversation) throw new LiveSessionGoneError('The live session was deleted: its new entries are no longer stored.');
    if (entry.index !== conversation.entryCount) {
      throw new Error(`Live session ${conversation.title}: entry ${entry.id} has index ${entry.index}, but the stored journal has ${conversation.entryCount} entries; it was not stored.`);
    }
    await db.entries.add({ ...entry, conversationId });
    await db.conversations.update(conversationId, {
      entryCount: conversation.entryCount + 1,
      lines: conversation.lines + 1,
      size: conversation.size + JSON.stringify(entry).length,
      importId: crypto.randomUUID(),
    });
  }).catch((error: unknown) => {
    throw asStorageError(error, 'saving the live session');
  });
}

/** Stores a compaction the loop made, with the journal version it was made on. */
export async function storeLiveRun(db: FoldlabDatabase, run: Omit<CompactionRow, 'importId'>): Promise<CompactionRow> {
  return db.transaction('rw', [db.conversations, db.compactions], async () => {
    const conversation = await db.conversations.get(run.conversationId);
    if (!conversation) throw new LiveSessionGoneError('The live session was deleted: its compaction was not stored.');
    const row: CompactionRow = { ...run, importId: conversation.importId };
    await db.compactions.add(row);
    return row;
  });
}

export function liveSession(db: FoldlabDatabase, conversationId: string): Promise<LiveSessionRow | undefined> {
  return db.liveSessions.get(conversationId);
}

/** Counts one more model call of the session (see `LiveSessionRow.modelCalls`); a deleted session counts nothing. */
export async function countLiveCall(db: FoldlabDatabase, conversationId: string): Promise<void> {
  await db.liveSessions.update(conversationId, (row) => {
    row.modelCalls = (row.modelCalls ?? 0) + 1;
  }).catch((error: unknown) => {
    throw asStorageError(error, 'saving the live session');
  });
}

/** A snapshot folder picked again after a reload replaces the stored folder (a handle too). */
export async function updateLiveFolder(db: FoldlabDatabase, conversationId: string, folder: LiveSessionRow['folder']): Promise<void> {
  await db.liveSessions.update(conversationId, { folder });
}
