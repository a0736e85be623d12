/**
 * The inspection report of an imported transcript: the shape `foldlab inspect --json` prints and
 * the app's summary panel shows, computed by the same code in Node and in the worker.
 */
import type { Entry, Role } from './journal/entry.ts';
import { linkReport } from './journal/link.ts';
import { branchLeaves } from './journal/tree.ts';
import { sessionFacts, type SessionFacts } from './import/session-facts.ts';
import { conversationTitle } from './import/title.ts';
import type { FormatId, ImportResult, SubagentLink } from './import/types.ts';
import type { CounterId } from './tokens/counters.ts';

export interface InspectReport {
  format: FormatId;
  title?: string;
  /** What the source recorded about the session (cwd, branch, created, model, version), as the page shows it. */
  session: SessionFacts;
  /** Entries in the journal (every kind). */
  entries: number;
  /** Conversation messages by role; `tool` counts tool-result entries. Markers and harness events are not messages. */
  roles: Record<'system' | 'user' | 'assistant' | 'tool', number>;
  /** Entries by kind: conversation messages, compaction markers, harness events. */
  kinds: Record<Entry['kind'], number>;
  toolCalls: number;
  toolResults: number;
  orphanToolCalls: number;
  orphanToolResults: number;
  branches: number;
  /** The first problems found, by line (at most 1000). */
  errors: Array<{ line: number; message: string }>;
  /** Lines skipped because of a problem, in all (`errors` may list fewer). */
  skippedLines: number;
  /** Blank lines in the file (JSONL), neither entries nor problems. */
  blankLines: number;
  lines: number;
  ignoredLines: number;
  tokens: { counter: CounterId; label: string; total: number; byRole: Record<Role, number>; byKind: Record<string, number> };
  /** The usage the source recorded, summed over the model responses that carry one (`recordedUsage`). */
  usage: RecordedUsageTotals;
  /** A subagent's own thread: its parent session and call, and its type and description when known. */
  subagent?: SubagentLink;
}

/** Recorded usage summed over the entries that carry one: what the agent's provider reported, as imported. */
export interface RecordedUsageTotals {
  /** Model responses with a recorded usage (an importer puts a response's usage on one entry). */
  responses: number;
  /** Prompt tokens, cache reads and writes included (as `Usage.input`). Unit: tokens. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The recorded usage of `entries`, summed: the figure `inspect` prints and the page's import report carries. */
export function recordedUsage(entries: readonly Entry[]): RecordedUsageTotals {
  const totals: RecordedUsageTotals = { responses: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const { usage } of entries) {
    if (!usage) continue;
    totals.responses++;
    totals.input += usage.input;
    totals.output += usage.output;
    totals.cacheRead += usage.cacheRead ?? 0;
    totals.cacheWrite += usage.cacheWrite ?? 0;
  }
  return totals;
}

export interface TokenSummary {
  counter: CounterId;
  label: string;
  total: number;
  byRole: Record<Role, number>;
  byKind: Record<string, number>;
}

/** Builds the report from an import result and its token summary. */
export function inspect(result: ImportResult, tokens: TokenSummary): InspectReport {
  const roles = { system: 0, user: 0, assistant: 0, tool: 0 };
  const kinds = { message: 0, compaction: 0, event: 0 };
  for (const entry of result.entries) {
    kinds[entry.kind]++;
    if (entry.kind === 'message' && entry.role !== 'summary') roles[entry.role]++;
  }
  const links = linkReport(result.entries);
  const title = conversationTitle(result);
  return {
    format: result.format,
    ...(title !== undefined ? { title } : {}),
    session: sessionFacts(result.meta),
    entries: result.entries.length,
    roles,
    kinds,
    ...links,
    branches: branchLeaves(result.entries).length,
    errors: result.issues.map(({ line, message }) => ({ line, message })),
    skippedLines: result.issueCount ?? result.issues.length,
    blankLines: result.blankLines ?? 0,
    lines: result.lines,
    ignoredLines: result.ignoredLines,
    tokens,
    usage: recordedUsage(result.entries),
    ...(result.meta.subagent ? { subagent: { ...result.meta.subagent } } : {}),
  };
}
