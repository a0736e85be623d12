/**
 * opencode's SQLite store on the command line: `opencode.db` reads its only top-level session,
 * `opencode.db#<sessionId>` picks one; the sessions it started (subagents, by `parent_id`) come
 * with it as threads, and every row the store could not read is an issue of the import.
 */
import { basename } from 'node:path';
import type { OpencodeSession } from '../core/import/opencode-folder.ts';
import type { OpencodeStore } from '../core/import/opencode-store.ts';
import { importText } from '../core/import/run.ts';
import { ImportFormatError, type ImportResult } from '../core/import/types.ts';

/** Sessions named in the refusal of a store of several. */
const LISTED = 10;

function read(session: OpencodeSession): ImportResult {
  return importText(JSON.stringify(session.document, null, 1), { format: 'opencode', fileName: `${session.sessionId}.json` });
}

function listing(file: string, sessions: readonly OpencodeSession[]): string {
  const shown = sessions.slice(0, LISTED).map((session) => `"${file}#${session.sessionId}" (${session.name})`).join(', ');
  return sessions.length > LISTED ? `${shown} and ${sessions.length - LISTED} more` : shown;
}

/** One session of the store, its subagent sessions as threads, the store's problems as issues. */
export function opencodeConversation(file: string, { sessions, problems }: OpencodeStore, sessionId?: string): ImportResult {
  const name = basename(file);
  let chosen: OpencodeSession | undefined;
  if (sessionId !== undefined) {
    chosen = sessions.find((session) => session.sessionId === sessionId);
    if (!chosen) throw new ImportFormatError(`"${name}" has no opencode session with id "${sessionId}"; it has ${sessions.length}: ${listing(file, sessions)}.`);
  } else {
    const top = sessions.filter((session) => session.parentId === undefined || !sessions.some((other) => other.sessionId === session.parentId));
    if (top.length !== 1) throw new ImportFormatError(`"${name}" holds ${top.length} opencode sessions; the command line reads one: pass ${listing(file, top)}.`);
    chosen = top[0]!;
  }
  const result = read(chosen);
  const children = sessions.filter((session) => session.parentId === chosen.sessionId);
  if (children.length > 0) result.threads = children.map(read);
  for (const problem of problems) result.issues.push({ line: 0, kind: 'malformed', message: `${problem.key}: ${problem.message}` });
  result.issueCount = (result.issueCount ?? 0) + problems.length;
  return result;
}
