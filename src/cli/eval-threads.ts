/**
 * Subagent threads in an `eval` report: each thread (a subagent's own file, or a sidechain written
 * inline in its session's file) is a row of its own that names its parent session, and the file of
 * that session when the same eval read it.
 */
import type { ImportResult } from '../core/import/types.ts';

/** The parent of a subagent's row. */
export interface EvalParent {
  /** The session that started the subagent (the lines' `sessionId`); null when the file had none. */
  sessionId: string | null;
  /** That session's file when this eval read it too, else null (not evaluated). */
  file: string | null;
  /** The parent's tool call that started the subagent, when it was matched. */
  toolUseId?: string;
}

/** Which subagent a row is. */
export interface EvalAgent {
  id: string | null;
  type?: string;
  description?: string;
}

/** The fields of an eval row this module reads and fills (a subset of eval.ts's EvalFileReport). */
export interface ThreadRow {
  file: string;
  conversation?: number;
  sessionId?: string;
  parent?: EvalParent;
  agent?: EvalAgent;
  thread?: string;
  subagentCalls?: Record<string, string>;
}

/** The conversations of an import: its main thread first, then each inline subagent thread. */
export function threadsOf(result: ImportResult): ImportResult[] {
  return [result, ...(result.threads ?? [])];
}

/** The fields a thread adds to its rows: its session, and for a subagent its parent and agent. */
export function threadFields(result: ImportResult, isInline: boolean): Omit<ThreadRow, 'file' | 'conversation'> {
  const link = result.meta.subagent;
  const sessionId = result.meta.sessionId;
  const calls = result.meta.subagentCalls;
  if (link === undefined) return { ...(sessionId !== undefined ? { sessionId } : {}), ...(calls !== undefined ? { subagentCalls: calls } : {}) };
  return {
    parent: { sessionId: link.parentSessionId ?? null, file: null, ...(link.parentToolUseId ? { toolUseId: link.parentToolUseId } : {}) },
    agent: { id: link.agentId ?? null, ...(link.agentType ? { type: link.agentType } : {}), ...(link.description ? { description: link.description } : {}) },
    ...(isInline && link.agentId ? { thread: link.agentId } : {}),
  };
}

/**
 * Fills each subagent row's `parent.file` with the file of its session's main row, when there is
 * one, and `parent.toolUseId` with the call that session recorded for the agent.
 */
export function linkParents<Row extends ThreadRow>(reports: Row[]): Row[] {
  const sessions = new Map<string, Row>();
  for (const report of reports) {
    if (report.parent === undefined && report.sessionId !== undefined && !sessions.has(report.sessionId)) sessions.set(report.sessionId, report);
  }
  for (const report of reports) {
    const parent = report.parent;
    if (!parent?.sessionId) continue;
    const session = sessions.get(parent.sessionId);
    parent.file = session?.file ?? null;
    const call = report.agent?.id ? session?.subagentCalls?.[report.agent.id] : undefined;
    if (parent.toolUseId === undefined && call !== undefined) parent.toolUseId = call;
  }
  return reports;
}

/** How a row names its conversation in the tables: the file, `#thread` for an inline subagent, `#n` for the n-th root. */
export function rowName(report: ThreadRow): string {
  if (report.thread !== undefined) return `${report.file}#${report.thread}`;
  return report.conversation !== undefined ? `${report.file}#${report.conversation}` : report.file;
}

/** The parent column: the parent session's file, or its id marked as not evaluated; empty for a session's own rows. */
export function parentCell(report: ThreadRow): string {
  if (report.parent === undefined) return '';
  if (report.parent.file !== null) return report.parent.file;
  return report.parent.sessionId ? `session ${report.parent.sessionId} (not evaluated)` : '(unknown session)';
}
