/**
 * The layered context in the seed's order (§A4, §A5): L1 system prompts, archived summaries
 * (earlier ones first, verbatim), the new archive, then the kept turns with older tool results
 * compressed. Reads the branch's classes, calls and conversation counts from its facts, so a plan
 * that archives nothing assembles without walking the history more than once.
 */
import type { Entry } from '../../journal/entry.ts';
import type { CompactedContext, CompactionInput, ContextEntry, Fate, Plan, PreviousCompaction, SummaryTask } from '../../compaction/types.ts';
import { archiveEntry } from './archived-summary.ts';
import { archivedEntryTokens, entryTokens, layeredBranchFacts, summaryEntryTokens, type LayeredBranchFacts } from './branch-facts.ts';
import { compressedEntry } from './compressed-entries.ts';
import type { CompressionLimits } from './tool-compression.ts';

/** Id of the summary task the plan asks for (one archive per run). */
export const ARCHIVE_TASK_ID = 'archive';

export interface ArchiveRange { fromId: string; toId: string; count: number }

function isRange(value: unknown): value is ArchiveRange {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.fromId === 'string' && typeof r.toId === 'string' && typeof r.count === 'number';
}

/** The text of an archived summary entry when it is its one block (as `archiveEntry` makes it). */
function textOfArchive(entry: Entry): string | undefined {
  const block = entry.blocks[0];
  return entry.blocks.length === 1 && block?.type === 'text' ? block.text : undefined;
}

/** Index of the first entry a previous run did not archive (its `firstKeptEntryId`). */
export function archivedPrefixEnd(input: CompactionInput, facts: LayeredBranchFacts = layeredBranchFacts(input.entries)): { start: number; note?: string } {
  const id = input.previous?.firstKeptEntryId;
  if (id === undefined) return { start: 0 };
  const start = facts.indexOf(id);
  if (start >= 0) return { start };
  return { start: 0, note: `The previous compaction kept entries from ${id}, which is not on this branch: its summaries are still appended, but no entry is treated as already archived.` };
}

/** What each earlier summary replaces: recorded in `state.archives`, else the whole archived prefix. */
function previousRanges(input: CompactionInput, start: number, facts: LayeredBranchFacts): ArchiveRange[] {
  const summaries = input.previous?.summaries ?? [];
  const recorded = input.previous?.state?.archives;
  const count = facts.conversationsBefore(start);
  const fallbackId = input.previous?.firstKeptEntryId ?? '';
  let whole: ArchiveRange = { fromId: fallbackId, toId: fallbackId, count: 0 };
  if (count > 0) {
    const first = facts.firstConversation;
    let last = start - 1;
    while (facts.classes[last] !== 'conversation') last--;
    whole = { fromId: input.entries[first]!.id, toId: input.entries[last]!.id, count };
  }
  return summaries.map((_, k) => {
    const range = Array.isArray(recorded) ? (recorded as unknown[])[k] : undefined;
    return isRange(range) ? range : whole;
  });
}

/**
 * The conversation entries before the cut a plan kept (pinned, or pulled in with a kept pair), by
 * the plan's fates array: assembling reads them without a walk over the archived history.
 */
export const keptConversation = new WeakMap<readonly Fate[], readonly number[]>();

/** Earlier summaries' ranges per branch, for the previous compaction and start they were read for. */
const rangesOf = new WeakMap<LayeredBranchFacts, { previous: PreviousCompaction; start: number; ranges: ArchiveRange[] }>();

/** Archive entries made for earlier summaries, per entry they stand at: the same ones while the archive does not move. */
const archivesAt = new WeakMap<Entry, Map<number, Entry>>();

function previousArchive(k: number, text: string, at: Entry | undefined): Entry {
  if (!at) return archiveEntry(`layered-archive-${k + 1}`, text, at);
  let made = archivesAt.get(at);
  if (!made) archivesAt.set(at, (made = new Map()));
  const known = made.get(k);
  if (known && textOfArchive(known) === text) return known;
  const entry = archiveEntry(`layered-archive-${k + 1}`, text, at);
  made.set(k, entry);
  return entry;
}

export function summaryTask(plan: Plan): SummaryTask | undefined {
  return plan.summaries.find((task) => task.id === ARCHIVE_TASK_ID);
}

/**
 * The assembled context. Without `summary` the head is simply gone (the timeout fallback's hard
 * truncation).
 */
export function buildContext(input: CompactionInput, plan: Plan, limits: CompressionLimits, summary: string | undefined): Omit<CompactedContext, 'truncationApplied' | 'summaryApplied' | 'notes'> & { archived?: ArchiveRange } {
  const { entries } = input;
  const facts = layeredBranchFacts(entries);
  const { start } = archivedPrefixEnd(input, facts);
  const cut = plan.cut?.index ?? start;
  const classes = facts.classes;
  const out: ContextEntry[] = [];
  const journal = (entry: Entry): ContextEntry => ({ role: entry.role, entry, origin: 'journal' });
  const place = (i: number) => {
    const entry = entries[i]!;
    const fate = plan.fates[i];
    if (fate === 'keep') out.push(journal(entry));
    else if (fate === 'compress') {
      const compressed = compressedEntry(entry, facts.calls, limits);
      out.push(compressed ? { role: entry.role, entry: compressed.entry, origin: 'compressed' } : journal(entry));
    }
  };
  // System prompts and journal archives before the cut are all in `facts.kept`, ascending.
  const keptBefore = facts.kept.countBelow(cut);
  for (let k = 0; k < keptBefore; k++) if (classes[facts.kept.at(k)] === 'system') place(facts.kept.at(k));
  const previousSummaries = input.previous?.summaries ?? [];
  let ranges: ArchiveRange[];
  const known = rangesOf.get(facts);
  if (input.previous && known?.previous === input.previous && known.start === start) ranges = known.ranges;
  else {
    ranges = previousRanges(input, start, facts);
    if (input.previous) rangesOf.set(facts, { previous: input.previous, start, ranges });
  }
  const previousFrom = out.length;
  previousSummaries.forEach((text, k) => {
    out.push({ role: 'system', entry: previousArchive(k, text, entries[start]), origin: 'summary', replaces: ranges[k]! });
  });
  for (let k = 0; k < keptBefore; k++) if (classes[facts.kept.at(k)] === 'archive') place(facts.kept.at(k));
  const task = summaryTask(plan);
  let range: ArchiveRange | undefined;
  if (summary !== undefined && task) {
    let count = 0;
    for (let i = task.from; i <= task.to; i++) if (plan.fates[i] === 'summarize') count++;
    range = { fromId: entries[task.from]!.id, toId: entries[task.to]!.id, count };
    out.push({ role: 'system', entry: archiveEntry(`layered-archive-${previousSummaries.length + 1}`, summary, entries[task.from]), origin: 'summary', replaces: range });
  }
  // Conversation before the cut: only what the plan kept (pinned, or the other half of a kept pair).
  const kept = keptConversation.get(plan.fates);
  if (kept) for (const i of [...kept].sort((a, b) => a - b)) place(i);
  else for (let i = 0; i < cut; i++) if (classes[i] === 'conversation' && plan.fates[i] !== 'drop' && plan.fates[i] !== 'summarize') place(i);
  for (let i = cut; i < entries.length; i++) place(i);

  // Summaries are counted once per text: each run carries every earlier one again.
  let tokensAfter = archivedEntryTokens(previousSummaries, input.counter);
  for (let k = 0; k < out.length; k++) {
    if (k === previousFrom) k += previousSummaries.length;
    const item = out[k];
    if (!item) break;
    const text = item.origin === 'summary' ? textOfArchive(item.entry) : undefined;
    tokensAfter += text !== undefined ? summaryEntryTokens(text, input.counter) : entryTokens(item.entry, input.counter);
  }
  let previous: PreviousCompaction;
  if (plan.nothingToDo || !plan.cut) {
    previous = input.previous ?? { strategy: 'layered', summaries: [] };
  } else {
    const archives: unknown[] = [...ranges];
    if (summary !== undefined && range) archives.push(range);
    const firstKept = entries[cut]?.id;
    previous = {
      strategy: 'layered',
      summaries: summary !== undefined ? [...previousSummaries, summary] : [...previousSummaries],
      ...(firstKept !== undefined ? { firstKeptEntryId: firstKept } : {}),
      state: { archives },
    };
  }
  return { entries: out, tokensAfter, previous, ...(range ? { archived: range } : {}) };
}
