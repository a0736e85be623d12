/**
 * pi's cut kept up to date as entries are appended: PiCutTracker indexes each entry once (tokens,
 * legal cut points, the call each tool result answers, the turn it belongs to), so replanning after
 * an append answers the same cut as findCutPoint without walking the span again.
 */
import type { Entry } from '../../journal/entry.ts';
import type { TokenIndex } from '../../tokens/prefix-sums.ts';
import { isTurnStart, isValidCutPoint, placeCut, resultCalls, type CallResolver, type CutLookup, type CutPoint } from './cut-point.ts';

const MIN_CAPACITY = 16;

/** An Int32Array that grows by doubling: amortized O(1) push. */
class IntList {
  values = new Int32Array(MIN_CAPACITY);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/** Position of the last value <= x among the first `length` values of an ascending list, or -1. */
function lastAtOrBelow(values: ArrayLike<number>, length: number, x: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

const NONE = 0x7fffffff;

/** Range minimum over a growable array: a bottom-up segment tree, O(log n) append and query. */
class MinTree {
  private capacity = MIN_CAPACITY;
  private tree = new Int32Array(2 * MIN_CAPACITY).fill(NONE);
  private size = 0;

  append(value: number): void {
    if (this.size === this.capacity) this.grow();
    let node = this.capacity + this.size++;
    this.tree[node] = value;
    for (node >>= 1; node >= 1; node >>= 1) this.tree[node] = Math.min(this.tree[2 * node]!, this.tree[2 * node + 1]!);
  }

  /** Smallest value at positions lo..hi-1 (NONE when empty). */
  min(lo: number, hi: number): number {
    let best = NONE;
    for (let l = lo + this.capacity, r = hi + this.capacity; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = Math.min(best, this.tree[l++]!);
      if (r & 1) best = Math.min(best, this.tree[--r]!);
    }
    return best;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const tree = new Int32Array(2 * capacity).fill(NONE);
    tree.set(this.tree.subarray(this.capacity, this.capacity + this.size), capacity);
    for (let node = capacity - 1; node >= 1; node--) tree[node] = Math.min(tree[2 * node]!, tree[2 * node + 1]!);
    this.capacity = capacity;
    this.tree = tree;
  }
}

/**
 * The pi cut over entries start.. of a growing branch. Built in O(n) from the entries so far;
 * `append` is amortized O(1) (O(log n) for the call index); `cut` answers exactly what
 * `findCutPoint(entries, tokens, start, entries.length, keep)` answers, in O(log n) per step: the
 * reach point and the nearest legal cut are binary searches, the calls kept results answer are a
 * range minimum, the turn start a lookup. Each time a kept result pulls the cut back costs one more
 * step (one in real transcripts; a chain of calls answered across turns can take more).
 *
 * The tracker appends to `tokens` itself (so it owns that TokenIndex from then on) and assumes
 * entries are never edited once appended, as journal entries are not.
 */
export class PiCutTracker {
  private readonly list: Entry[];
  private readonly legal = new IntList();
  /** Newest user-role message at or before each index, or -1. */
  private readonly turns = new IntList();
  /** Per index: the smallest index of a call one of its results answers in start.., else the index itself. */
  private readonly calls = new MinTree();
  /** Newest index of each id of an entry making calls, and the indices calling each callId (ascending; most callIds have one). */
  private readonly ids = new Map<string, number>();
  private readonly callers = new Map<string, number | number[]>();
  private readonly resolver: CallResolver;
  private readonly lookup: CutLookup;

  constructor(
    entries: readonly Entry[],
    private readonly tokens: TokenIndex,
    /** Index of the first entry after the last compaction boundary (findCutPoint's `start`). */
    readonly start: number,
  ) {
    if (tokens.length !== entries.length) {
      throw new RangeError(`PiCutTracker needs a token count for every entry: ${entries.length} entries, ${tokens.length} counts.`);
    }
    this.list = [];
    this.resolver = {
      byId: (id, before) => {
        const index = this.ids.get(id);
        return index !== undefined && index >= this.start && index < before ? index : -1;
      },
      byCallId: (callId, before) => {
        const callers = this.callers.get(callId);
        let index = -1;
        if (typeof callers === 'number') index = callers < before ? callers : -1;
        else if (callers) {
          const at = lastAtOrBelow(callers, callers.length, before - 1);
          index = at >= 0 ? callers[at]! : -1;
        }
        return index >= this.start ? index : -1;
      },
    };
    this.lookup = {
      legalAtOrBefore: (i) => {
        const at = lastAtOrBelow(this.legal.values, this.legal.length, i);
        const index = at >= 0 ? this.legal.values[at]! : -1;
        return index >= this.start ? index : -1;
      },
      legalAtOrAfter: (i) => {
        const at = lastAtOrBelow(this.legal.values, this.legal.length, i - 1) + 1;
        return at < this.legal.length ? this.legal.values[at]! : -1;
      },
      earliestCall: (lo, hi) => Math.min(lo, this.calls.min(lo, hi)),
      turnStart: (i) => {
        const index = i >= this.start ? this.turns.values[i]! : -1;
        return index >= this.start ? index : -1;
      },
    };
    for (const entry of entries) this.index(entry);
  }

  /** The entries so far (the tracker's own array; do not modify). */
  get entries(): readonly Entry[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  /** Adds one entry with its token count (in the TokenIndex's counter). */
  append(entry: Entry, tokens: number): void {
    this.tokens.append(tokens);
    this.index(entry);
  }

  /** The cut keeping keepRecentTokens of start..end; undefined when there is no user or assistant message to cut at. */
  cut(keepRecentTokens: number): CutPoint | undefined {
    return placeCut(this.list, this.tokens, this.start, this.list.length, keepRecentTokens, this.lookup);
  }

  private index(entry: Entry): void {
    const i = this.list.length;
    // Calls are resolved against entries before this one: a result never answers a later call.
    this.calls.append(resultCalls(entry, i, this.resolver));
    this.list.push(entry);
    if (isValidCutPoint(entry)) this.legal.push(i);
    this.turns.push(isTurnStart(entry) ? i : i > 0 ? this.turns.values[i - 1]! : -1);
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      this.ids.set(entry.id, i);
      const callers = this.callers.get(block.callId);
      if (callers === undefined) this.callers.set(block.callId, i);
      else if (typeof callers === 'number') {
        if (callers !== i) this.callers.set(block.callId, [callers, i]);
      } else if (callers[callers.length - 1] !== i) callers.push(i);
    }
  }
}
