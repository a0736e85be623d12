/**
 * The library as a tree: a session's subagents (conversations whose `meta.subagent` names the
 * session's id) are listed under it, in the order they were imported; a subagent whose session is
 * not in the library stays at the top level and says so.
 */
import { subagentNote as subagentNoteOf } from '../../store/view/library.ts';
import type { ConversationRow } from '../../db/schema.ts';

export interface LibraryNode {
  row: ConversationRow;
  /** The session's subagent conversations (empty for most). */
  subagents: ConversationRow[];
  /** A subagent whose session is not imported: that session's id ('' when the file had none). */
  parentMissing?: string;
}

/** `rows` in display order (newest first); sessions keep that order, their subagents follow import order. */
export function libraryTree(rows: readonly ConversationRow[]): LibraryNode[] {
  const sessions = new Map<string, LibraryNode>();
  const nodes: LibraryNode[] = [];
  for (const row of rows) {
    if (row.meta.subagent !== undefined) continue;
    const node: LibraryNode = { row, subagents: [] };
    nodes.push(node);
    // The newest import of a session is the one its subagents hang under.
    if (row.meta.sessionId !== undefined && !sessions.has(row.meta.sessionId)) sessions.set(row.meta.sessionId, node);
  }
  const orphans: LibraryNode[] = [];
  for (const row of [...rows].reverse()) {
    const link = row.meta.subagent;
    if (link === undefined) continue;
    const parent = link.parentSessionId === undefined ? undefined : sessions.get(link.parentSessionId);
    if (parent) parent.subagents.push(row);
    else orphans.unshift({ row, subagents: [], parentMissing: link.parentSessionId ?? '' });
  }
  // Orphans take their place among the sessions by import time (rows are newest first).
  const order = new Map(rows.map((row, i) => [row.id, i]));
  return [...nodes, ...orphans].sort((a, b) => (order.get(a.row.id) ?? 0) - (order.get(b.row.id) ?? 0));
}

/** What a subagent's item says of it: its type and description when known. */
export function subagentNote(row: ConversationRow): string | undefined {
  const link = row.meta.subagent;
  return link === undefined ? undefined : subagentNoteOf(link, row.title);
}
