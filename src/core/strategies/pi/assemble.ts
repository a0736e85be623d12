/**
 * Builds the context after a pi compaction (P6): system messages, then the summary as one user
 * message (history summary, the split turn's prefix summary, the file lists), then the kept
 * entries from firstKeptEntryId on. The compaction entry pi would append is returned in the
 * state the next compaction reads.
 */
import { contextTokens } from '../../compaction/context-tokens.ts';
import type { CompactedContext, CompactionInput, ContextEntry, Plan, PreviousCompaction } from '../../compaction/types.ts';
import type { Entry } from '../../journal/entry.ts';
import { isSystemMessage, resolveBoundary, type Boundary } from './boundary.ts';
import type { PiCompactionEntry } from './compaction-entry.ts';
import { cumulativeFileLists, formatFileSections, stripFileSections } from './file-lists.ts';
import { groupDigits, type PiOptions } from './options.ts';
import { HISTORY_TASK, NO_EARLIER_HISTORY, SPLIT_TURN_SEPARATOR, TURN_PREFIX_TASK } from './plan.ts';

/** A summary the plan asked for did not come back. */
export class MissingSummaryError extends Error {
  override name = 'MissingSummaryError';
}

function needSummary(summaries: ReadonlyMap<string, string>, id: string): string {
  const text = summaries.get(id);
  if (text === undefined) throw new MissingSummaryError(`The pi plan needs the "${id}" summary but the summarizer returned none; nothing was changed. Run the compaction again.`);
  return text;
}

/** A new entry standing for the summarized entries (never a journal entry: compaction writes nothing). */
function summaryContextEntry(input: CompactionInput, text: string, fromIndex: number, toIndex: number, count: number, marker: Entry['marker']): ContextEntry {
  const from = input.entries[fromIndex]!;
  const to = input.entries[toIndex]!;
  const entry: Entry = {
    id: `pi-summary:${marker?.firstKeptEntryId ?? to.id}`,
    index: to.index,
    parentId: from.parentId,
    role: 'summary',
    kind: 'compaction',
    blocks: [{ type: 'text', text }],
    timestamp: input.now,
    sourceType: 'compaction',
    line: to.line,
    ...(marker ? { marker } : {}),
  };
  // pi hands its compaction summary to the model as a user message.
  return { role: 'user', entry, origin: 'summary', replaces: { fromId: from.id, toId: to.id, count } };
}

function journal(entry: Entry): ContextEntry {
  return { role: entry.role, entry, origin: 'journal' };
}

function countContext(input: CompactionInput, entries: readonly ContextEntry[]): number {
  return contextTokens(input, entries);
}

/** The context as it is now (nothing to compact): system, the previous summary if any, entries from the boundary. */
function unchanged(input: CompactionInput, boundary: Boundary, plan: Plan): CompactedContext {
  const out: ContextEntry[] = [];
  const { entries } = input;
  for (let i = 0; i < boundary.start; i++) if (isSystemMessage(entries[i]!)) out.push(journal(entries[i]!));
  if (boundary.previousSummary !== undefined && boundary.start > 0) {
    const covered = entries.slice(0, boundary.start).filter((entry) => !isSystemMessage(entry));
    const fromIndex = entries.findIndex((entry) => !isSystemMessage(entry));
    if (covered.length > 0) out.push(summaryContextEntry(input, boundary.previousSummary, fromIndex, boundary.start - 1, covered.length, undefined));
  }
  for (let i = boundary.start; i < entries.length; i++) out.push(journal(entries[i]!));
  return {
    entries: out,
    tokensAfter: countContext(input, out),
    previous: input.previous ?? { strategy: 'pi', summaries: [], state: { readFiles: [], modifiedFiles: [] } },
    truncationApplied: false,
    summaryApplied: false,
    notes: plan.nothingToDo ? [plan.nothingToDo] : [],
  };
}

export function assemblePi(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, _options: PiOptions): CompactedContext {
  const boundary = resolveBoundary(input);
  if (plan.nothingToDo !== undefined || plan.cut === undefined) return unchanged(input, boundary, plan);
  const { entries } = input;
  const cut = plan.cut.index;
  const historyTask = plan.summaries.find((task) => task.id === HISTORY_TASK);
  const prefixTask = plan.summaries.find((task) => task.id === TURN_PREFIX_TASK);

  // Reused as is, the previous summary loses its file sections: the cumulative ones follow below.
  const reused = boundary.previousSummary !== undefined ? stripFileSections(boundary.previousSummary) : NO_EARLIER_HISTORY;
  const history = historyTask ? needSummary(summaries, historyTask.id) : reused;
  let text = history;
  if (prefixTask) {
    const prefix = needSummary(summaries, prefixTask.id);
    // A before-compact hook supplies one text for every task: use it once.
    if (prefix !== history) text = `${history}${SPLIT_TURN_SEPARATOR}${prefix}`;
  }
  const lists = cumulativeFileLists(boundary, entries.slice(boundary.start, cut));
  text += formatFileSections(lists);

  const firstKept = entries[cut]!;
  const compaction: PiCompactionEntry = {
    type: 'compaction',
    summary: text,
    firstKeptEntryId: firstKept.id,
    tokensBefore: plan.tokensBefore,
    details: { readFiles: lists.readFiles, modifiedFiles: lists.modifiedFiles },
  };

  const replaced: number[] = [];
  plan.fates.forEach((fate, i) => {
    if (fate === 'summarize') replaced.push(i);
  });
  const out: ContextEntry[] = [];
  for (let i = 0; i < cut; i++) if (plan.fates[i] === 'keep') out.push(journal(entries[i]!));
  if (replaced.length > 0) {
    out.push(summaryContextEntry(input, text, replaced[0]!, replaced[replaced.length - 1]!, replaced.length, {
      source: 'pi.compaction',
      firstKeptEntryId: firstKept.id,
      tokensBefore: plan.tokensBefore,
      readFiles: lists.readFiles,
      modifiedFiles: lists.modifiedFiles,
    }));
  }
  for (let i = cut; i < entries.length; i++) if (plan.fates[i] === 'keep') out.push(journal(entries[i]!));

  const tokensAfter = countContext(input, out);
  const previous: PreviousCompaction = {
    strategy: 'pi',
    summaries: [text],
    firstKeptEntryId: firstKept.id,
    state: { readFiles: lists.readFiles, modifiedFiles: lists.modifiedFiles, compaction },
  };
  const kept = out.filter((item) => item.origin === 'journal').length;
  return {
    entries: out,
    tokensAfter,
    previous,
    truncationApplied: false,
    summaryApplied: true,
    notes: [`The summary replaces ${replaced.length} entries; ${kept} entries are kept from ${firstKept.id} on. ${groupDigits(plan.tokensBefore)} -> ${groupDigits(tokensAfter)} tokens (${input.counter.label}).`],
  };
}
