/**
 * A compaction's context stored as a change to the one before it. Strategies such as observation
 * masking or a sliding window compact at nearly every call and keep most of the previous context,
 * so a full list per compaction would make a replay's result grow with calls × context length.
 * Each compaction keeps only its delta; `compactionContext` rebuilds the full list when the user
 * opens a compaction or a call. Results saved before deltas existed carry `context` in full.
 */
import type { ContextDelta, ContextRef, ReplayCompaction } from './types.ts';

export type { ContextDelta } from './types.ts';


/** Collects edits, merging neighbours of one kind so a delta stays as short as the change. */
export class DeltaWriter {
  readonly ops: ContextDelta = [];

  keep(n: number): void {
    if (n <= 0) return;
    const last = this.ops[this.ops.length - 1];
    if (typeof last === 'number' && last > 0) this.ops[this.ops.length - 1] = last + n;
    else this.ops.push(n);
  }

  skip(n: number): void {
    if (n <= 0) return;
    const last = this.ops[this.ops.length - 1];
    if (typeof last === 'number' && last < 0) this.ops[this.ops.length - 1] = last - n;
    else this.ops.push(-n);
  }

  insert(ref: ContextRef): void {
    const last = this.ops[this.ops.length - 1];
    if (Array.isArray(last)) last.push(ref);
    else this.ops.push([ref]);
  }
}

/** Applies `delta` to `base` in place (one splice per change, so a small change to a long list stays cheap). */
export function applyDelta(base: ContextRef[], delta: ContextDelta): ContextRef[] {
  let at = 0;
  for (let k = 0; k < delta.length; k++) {
    const op = delta[k]!;
    if (typeof op === 'number' && op > 0) {
      at += op;
      continue;
    }
    // A skip followed by an insert is one splice.
    let remove = 0;
    let add: readonly ContextRef[] = [];
    if (typeof op === 'number') {
      remove = -op;
      const next = delta[k + 1];
      if (Array.isArray(next)) {
        add = next;
        k++;
      }
    } else {
      add = op;
    }
    splice(base, at, remove, add);
    at += add.length;
  }
  if (at < base.length) base.length = at;
  return base;
}

/** `list.splice(at, remove, ...add)` without spreading a long `add` into arguments. */
function splice(list: ContextRef[], at: number, remove: number, add: readonly ContextRef[]): void {
  if (add.length <= 10_000) {
    list.splice(at, remove, ...add);
    return;
  }
  const tail = list.slice(at + remove);
  list.length = at;
  for (const ref of add) list.push(ref);
  for (const ref of tail) list.push(ref);
}

/** The journal entries `from..to - 1` as references, by the branch's entry ids. */
function appended(entryIds: readonly string[], from: number, to: number, into: ContextRef[]): void {
  for (let i = from; i < to; i++) into.push({ origin: 'journal', entryId: entryIds[i] ?? '' });
}

/**
 * The context right after compaction `index` of a replay, in full. `entryIds` are the replayed
 * branch's entry ids by input index (the compare result's `entryIds`). Cost: the deltas before it
 * plus the entries recorded until then, each change one splice.
 */
export function compactionContext(compactions: readonly ReplayCompaction[], index: number, entryIds: readonly string[]): ContextRef[] {
  // Start from the latest compaction at or before `index` that carries its context in full.
  let start = index;
  while (start >= 0 && !compactions[start]!.context) start--;
  const list: ContextRef[] = start >= 0 ? [...compactions[start]!.context!] : [];
  let appendFrom = start >= 0 ? compactions[start]!.appendFrom : 0;
  for (let k = start + 1; k <= index; k++) {
    const compaction = compactions[k]!;
    const delta = compaction.contextDelta ?? [];
    appended(entryIds, appendFrom, compaction.appendFrom, list);
    applyDelta(list, delta);
    appendFrom = compaction.appendFrom;
  }
  return list;
}
