/**
 * Subagent threads found inline in an imported file (Claude Code 1.0 sidechains) are saved as
 * conversations of their own, named after the file and the thread; importing the file again
 * replaces each thread's conversation instead of adding a copy.
 */
import type { ImportResult } from '../../core/import/types.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';

/** `session.jsonl#sidechain-2`: the file a thread came from and which thread of it. */
export function threadFileName(fileName: string, thread: ImportResult): string {
  return `${fileName}#${thread.meta.subagent?.agentId ?? 'thread'}`;
}

/** The conversation an earlier import of the same file saved for this thread, if any. */
export async function existingThreadId(db: FoldlabDatabase, fileName: string, thread: ImportResult): Promise<string | undefined> {
  const parent = thread.meta.subagent?.parentSessionId;
  const rows = await db.conversations.filter((row) => row.fileName === fileName && row.meta.subagent?.parentSessionId === parent).toArray();
  return rows[0]?.id;
}
