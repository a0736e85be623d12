/**
 * Reads of the library that components watch (each inside a `useLiveQuery`, which sees the Dexie
 * reads made here, so a write anywhere, the worker's included, shows at once). Components call
 * these instead of reading the database themselves.
 */
import { db } from '../db/db.ts';
import { listBookmarks } from '../db/folds.ts';
import { jobsTable } from '../db/jobs.ts';
import { liveSession } from '../db/live-sessions.ts';
import { PERSISTENCE_KEY, type PersistenceSetting } from './storage-persistence.ts';

/** The main conversation of the session `sessionId` (a subagent's parent), the latest if imported twice. */
export function parentConversation(sessionId: string) {
  return db.conversations.filter((row) => row.meta.subagent === undefined && row.meta.sessionId === sessionId).last();
}

/** What the user chose about persistent storage, if anything. */
export async function persistenceSetting(): Promise<PersistenceSetting | undefined> {
  return (await db.settings.get(PERSISTENCE_KEY))?.value as PersistenceSetting | undefined;
}

/** A conversation's compaction runs, newest first. */
export function compactionRuns(conversationId: string) {
  return db.compactions.where('[conversationId+createdAt]').between([conversationId, -Infinity], [conversationId, Infinity]).reverse().toArray();
}

/** A live session's setup and folder, if the conversation is one. */
export function liveSessionRow(conversationId: string) {
  return liveSession(db, conversationId);
}

/** The ids of job records still marked running, joined: what the resume offer watches. */
export async function runningJobKeys(): Promise<string> {
  return (await jobsTable(db)?.where('state').equals('running').primaryKeys())?.join(',') ?? '';
}

/** The library's conversations, the latest imported first. */
export function conversationsNewestFirst() {
  return db.conversations.orderBy('importedAt').reverse().toArray();
}

/** A conversation's bookmarked fold iterations (0-based), in order. */
export function foldBookmarks(conversationId: string) {
  return listBookmarks(db, conversationId);
}
