/**
 * What a live compaction leaves in its journal record, so a session resumed after a reload sees
 * the context the agent had: the assembled history and the state the next compaction reads. The
 * history is kept as edits over the context the model had just before the compaction (the last
 * compaction's context, then the entries since): runs kept or skipped, and the entries the
 * strategy made (summaries; masked, cleared or compressed rewrites) put in full. A masking
 * strategy that compacts every turn thus stores only its new placeholders each time, not the
 * whole context again. A record without it (an older session, an imported pi file) is rebuilt
 * the way pi rebuilds one.
 */
import type { ContextEntry, PreviousCompaction, StrategyId } from '../compaction/types.ts';
import type { Entry, RecordedContext, RecordedContextEdit, RecordedContextItem } from '../journal/entry.ts';

/** What a compaction left (`CompactionState` of branch-context.ts): its assembled context and the state the next one reads. */
interface State {
  context: ContextEntry[];
  previous: PreviousCompaction;
}

const keyOf = (item: ContextEntry) => `${item.origin}\u0000${item.entry.id}`;

/** Whether `a` (of the context before) stands for `b` (of the new one) as it is. */
function same(a: ContextEntry, b: ContextEntry): boolean {
  if (a.role !== b.role || a.origin !== b.origin || a.entry.id !== b.entry.id) return false;
  // Journal entries are never rewritten: one id is one entry.
  if (a.origin === 'journal' || a.entry === b.entry) return JSON.stringify(a.replaces) === JSON.stringify(b.replaces);
  return JSON.stringify([a.entry, a.replaces]) === JSON.stringify([b.entry, b.replaces]);
}

function itemOf(item: ContextEntry): RecordedContextItem {
  return item.origin === 'journal'
    ? { role: item.role, entryId: item.entry.id }
    : { role: item.role, origin: item.origin, entry: item.entry, ...(item.replaces ? { replaces: item.replaces } : {}) };
}

/** The state as the record keeps it: edits that turn `before` (the context the model had) into the state's context. */
export function recordContext(before: readonly ContextEntry[], state: State): RecordedContext {
  // Where each item stands in `before`, and how far each list has been read.
  const at = new Map<string, { list: number[]; next: number }>();
  before.forEach((item, i) => {
    const key = keyOf(item);
    const seen = at.get(key);
    if (seen) seen.list.push(i);
    else at.set(key, { list: [i], next: 0 });
  });
  const edits: RecordedContextEdit[] = [];
  const step = (kind: 'keep' | 'skip', n: number) => {
    const last = edits.at(-1);
    if (last && kind in last) (last as Record<typeof kind, number>)[kind] += n;
    else edits.push(kind === 'keep' ? { keep: n } : { skip: n });
  };
  let p = 0;
  for (const item of state.context) {
    const seen = at.get(keyOf(item));
    while (seen && seen.next < seen.list.length && seen.list[seen.next]! < p) seen.next++;
    const q = seen?.list[seen.next];
    if (q !== undefined && same(before[q]!, item)) {
      if (q > p) step('skip', q - p);
      step('keep', 1);
      p = q + 1;
    } else {
      edits.push({ put: itemOf(item) });
    }
  }
  return { edits, previous: state.previous };
}

/**
 * The state a record keeps, read over `before` (the context the model had before it) with its
 * journal entries taken from `messages` (the branch's model context up to the record); undefined
 * when it keeps none, was made by another strategy, or does not fit (the caller then rebuilds it
 * from the summary).
 */
export function restoreRecordedContext(record: Entry, before: readonly ContextEntry[], messages: readonly Entry[], strategy: StrategyId): State | undefined {
  const recorded = record.marker?.context;
  if (!recorded || !Array.isArray(recorded.edits) || recorded.previous?.strategy !== strategy) return undefined;
  let byId: Map<string, Entry> | undefined;
  const context: ContextEntry[] = [];
  let p = 0;
  for (const edit of recorded.edits) {
    if ('put' in edit) {
      const item = edit.put;
      if ('entryId' in item) {
        byId ??= new Map(messages.map((entry) => [entry.id, entry]));
        const entry = byId.get(item.entryId);
        if (!entry) return undefined;
        context.push({ role: item.role, entry, origin: 'journal' });
      } else {
        context.push({ role: item.role, entry: item.entry, origin: item.origin, ...(item.replaces ? { replaces: item.replaces } : {}) });
      }
      continue;
    }
    const n = 'keep' in edit ? edit.keep : edit.skip;
    if (!Number.isInteger(n) || n < 0 || p + n > before.length) return undefined;
    if ('keep' in edit) context.push(...before.slice(p, p + n));
    p += n;
  }
  return { context, previous: { ...recorded.previous, strategy } };
}
