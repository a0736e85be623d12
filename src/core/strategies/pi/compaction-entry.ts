/**
 * The compaction entry pi appends to its session (P6): `{summary, firstKeptEntryId, tokensBefore}`
 * plus the file lists in `details`. Foldlab never writes it to the journal; it travels in the
 * compacted context's state, and this module reads it back out.
 */
import type { CompactedContext } from '../../compaction/types.ts';

export interface PiCompactionEntry {
  type: 'compaction';
  /** The summary the model sees, file sections included. */
  summary: string;
  /** First journal entry kept verbatim after the summary. */
  firstKeptEntryId: string;
  /** Tokens of the context before compacting, in the input's counter. */
  tokensBefore: number;
  details: { readFiles: string[]; modifiedFiles: string[] };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isCompactionEntry(value: unknown): value is PiCompactionEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const details = v.details as Record<string, unknown> | undefined;
  return v.type === 'compaction' && typeof v.summary === 'string' && typeof v.firstKeptEntryId === 'string'
    && typeof v.tokensBefore === 'number' && typeof details === 'object' && details !== null
    && isStringArray(details.readFiles) && isStringArray(details.modifiedFiles);
}

/** The compaction entry of a pi run (an outcome of runCompaction, or its context); undefined when the run compacted nothing. */
export function compactionEntry(outcome: { context: CompactedContext } | CompactedContext): PiCompactionEntry | undefined {
  const context = 'context' in outcome ? outcome.context : outcome;
  if (!context.summaryApplied || context.previous.strategy !== 'pi') return undefined;
  const entry = context.previous.state?.compaction;
  return isCompactionEntry(entry) ? entry : undefined;
}
