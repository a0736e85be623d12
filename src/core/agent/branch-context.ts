/**
 * The current branch as the model sees it: the path from the root to the leaf, the entries on it
 * that are model context (messages and branch summaries; the loop's compaction records are not),
 * and the history part of the context — what the last compaction on the path assembled, plus the
 * entries appended since (as a replay keeps its compacted context). A compaction made in this
 * session keeps its assembled context in memory; one read back from a resumed journal is restored
 * from the context its record keeps (`recorded-context.ts`), or, for a record that keeps none,
 * rebuilt the way pi rebuilds it: the summary, then the entries from `firstKeptEntryId`.
 */
import type { ContextEntry, PreviousCompaction, StrategyId } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { isCompactionRecord } from './journal-writer.ts';
import { restoreRecordedContext } from './recorded-context.ts';

/** What a compaction left: the context it assembled (covering the branch up to its record) and the state the next one reads. */
export interface CompactionState {
  context: ContextEntry[];
  previous: PreviousCompaction;
}

export interface BranchView {
  /** Root to leaf. */
  path: Entry[];
  /** Model-context entries on the path, in order: what a strategy is given. */
  messages: Entry[];
  /** The last compaction record on the path and what it left. */
  compaction?: { record: Entry; state: CompactionState };
  /** Model-context entries after that record (all of `messages` when there is none). */
  appended: Entry[];
}

/** Whether an entry is part of what the model is sent (harness events and compaction records are not). */
export function isModelContext(entry: Entry): boolean {
  if (entry.flags?.sidechain) return false;
  if (entry.kind === 'message') return true;
  return entry.kind === 'compaction' && !isCompactionRecord(entry);
}

/** Root-to-leaf path; a broken or cyclic parent chain ends it. */
export function pathOf(leafId: string | null, byId: (id: string) => Entry | undefined): Entry[] {
  const path: Entry[] = [];
  const seen = new Set<string>();
  let current = leafId === null ? undefined : byId(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    current = current.parentId === null ? undefined : byId(current.parentId);
  }
  return path.reverse();
}

/** As the model sees a journal entry: a branch summary reaches it as a user message (pi does so). */
export function journalItem(entry: Entry): ContextEntry {
  return { role: entry.kind === 'compaction' ? 'user' : entry.role, entry, origin: 'journal' };
}

/** A compaction record of a resumed journal, read back as pi reads it. */
function rebuiltState(record: Entry, before: readonly Entry[], strategy: StrategyId): CompactionState {
  const text = record.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  const keptId = record.marker?.firstKeptEntryId;
  const kept = keptId === undefined ? before.length : before.findIndex((entry) => entry.id === keptId);
  const start = kept < 0 ? before.length : kept;
  const context: ContextEntry[] = [];
  const first = before[0];
  const last = before[start - 1];
  if (first && last) context.push({ role: 'user', entry: record, origin: 'summary', replaces: { fromId: first.id, toId: last.id, count: start } });
  for (const entry of before.slice(start)) context.push(journalItem(entry));
  return {
    context,
    previous: { strategy, summaries: text ? [text] : [], ...(before[start] ? { firstKeptEntryId: before[start].id } : {}) },
  };
}

/**
 * The branch ending at `leafId`. `states` holds what each compaction of this session left; a
 * record read back from a resumed journal is restored (or rebuilt) once and kept there, since
 * what it left depends only on the entries above it.
 */
export function branchView(
  leafId: string | null,
  byId: (id: string) => Entry | undefined,
  states: Map<string, CompactionState>,
  strategy: StrategyId,
): BranchView {
  const path = pathOf(leafId, byId);
  const messages: Entry[] = [];
  let compaction: BranchView['compaction'];
  let appendFrom = 0;
  for (const entry of path) {
    if (isCompactionRecord(entry)) {
      let state = states.get(entry.id);
      if (!state) {
        const before = [...(compaction?.state.context ?? []), ...messages.slice(appendFrom).map(journalItem)];
        state = restoreRecordedContext(entry, before, messages, strategy) ?? rebuiltState(entry, messages, strategy);
        states.set(entry.id, state);
      }
      compaction = { record: entry, state };
      appendFrom = messages.length;
    } else if (isModelContext(entry)) messages.push(entry);
  }
  return { path, messages, ...(compaction ? { compaction } : {}), appended: messages.slice(appendFrom) };
}

/** The history part of the context: the last compaction's context, then what was appended since. */
export function historyContext(view: BranchView): ContextEntry[] {
  return [...(view.compaction?.state.context ?? []), ...view.appended.map(journalItem)];
}

/** Token counts per entry object (journal entries are never rewritten; made entries are counted once). */
export class TokenCache {
  private readonly counts = new WeakMap<Entry, number>();

  constructor(readonly counter: TokenCounter) {}

  of(entry: Entry): number {
    let n = this.counts.get(entry);
    if (n === undefined) {
      n = countEntry(entry, this.counter).total;
      this.counts.set(entry, n);
    }
    return n;
  }

  ofContext(items: readonly ContextEntry[]): number {
    let total = 0;
    for (const item of items) total += this.of(item.entry);
    return total;
  }
}
