/**
 * How the command line reads one conversation out of an agent's SQLite store (Cursor's composers,
 * opencode's sessions): `<store>#<id>` picks one, the path alone reads the store's only top-level
 * conversation, and a store of several is refused with the paths that read each; the conversations
 * the chosen one started come with it as subagent threads, and the store's problems that concern it
 * as issues of the import.
 */
import { basename } from 'node:path';
import { ImportFormatError, type ImportResult } from '../core/import/types.ts';

/** Conversations named in the refusal of a store of several. */
const LISTED = 10;

/** One conversation of a store as the command line sees it. */
export interface StoredConversation {
  /** The conversation that started this one, when recorded. */
  parentId?: string | undefined;
  name: string;
}

export interface StoreReading<T extends StoredConversation> {
  /** How the refusals name one conversation: "opencode session", "Cursor conversation". */
  noun: string;
  /** How the refusal names the id it did not find: "opencode session with id", "conversation with composer id". */
  missing: string;
  idOf: (conversation: T) => string;
  read: (conversation: T) => ImportResult;
  /** The store's problems that concern `chosen` (all of them, or those naming it). */
  problemsOf: (chosen: T) => readonly { key: string; message: string }[];
}

function listing<T extends StoredConversation>(file: string, conversations: readonly T[], idOf: (conversation: T) => string): string {
  const shown = conversations.slice(0, LISTED).map((conversation) => `"${file}#${idOf(conversation)}" (${conversation.name})`).join(', ');
  return conversations.length > LISTED ? `${shown} and ${conversations.length - LISTED} more` : shown;
}

/** The conversation `id` names (or the store's only top-level one), its threads and its problems. */
export function storeConversation<T extends StoredConversation>(file: string, conversations: readonly T[], how: StoreReading<T>, id?: string): ImportResult {
  const name = basename(file);
  const { idOf } = how;
  let chosen: T | undefined;
  if (id !== undefined) {
    chosen = conversations.find((conversation) => idOf(conversation) === id);
    if (!chosen) throw new ImportFormatError(`"${name}" has no ${how.missing} "${id}"; it has ${conversations.length}: ${listing(file, conversations, idOf)}.`);
  } else {
    const top = conversations.filter((conversation) => conversation.parentId === undefined || !conversations.some((other) => idOf(other) === conversation.parentId));
    if (top.length !== 1) throw new ImportFormatError(`"${name}" holds ${top.length} ${how.noun}s; the command line reads one: pass ${listing(file, top, idOf)}.`);
    chosen = top[0]!;
  }
  const result = how.read(chosen);
  const children = conversations.filter((conversation) => conversation.parentId === idOf(chosen));
  if (children.length > 0) result.threads = children.map(how.read);
  const problems = how.problemsOf(chosen);
  for (const problem of problems) result.issues.push({ line: 0, kind: 'malformed', message: `${problem.key}: ${problem.message}` });
  result.issueCount = (result.issueCount ?? 0) + problems.length;
  return result;
}
