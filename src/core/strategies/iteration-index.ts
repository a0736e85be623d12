/**
 * The iteration groups of a branch that grows one entry at a time, kept up to date in amortized
 * O(1) per appended entry. A replay asks the window strategies (sliding window, checkpoints,
 * two-layer, query on demand, the masking strategies) before every model call, each time with the
 * same history plus what was recorded since: re-splitting the whole history at every call made a
 * replay quadratic. The groups equal `scanIterationGroups` of the same entries (a property test
 * compares them on random branches); callers must treat them as read-only.
 */
import type { Entry } from '../journal/entry.ts';

/**
 * One unit the window counts: an assistant response (possibly split over several consecutive
 * assistant entries) with the tool results answering it, preceded by the user messages that led
 * to it. Iterations whose calls and results interleave are merged into one group so a cut between
 * groups never separates a call from its result; `count` says how many iterations a group holds.
 */
export interface IterationGroup {
  /** Input indices of the group's entries, ascending (system entries are never in a group). */
  indices: number[];
  /** Iterations in the group (0 for a trailing user message still waiting for an answer). */
  count: number;
  /** 1-based number of the group's first iteration in the input. */
  first: number;
}

/** Number of groups that end before input index `at` (groups are consecutive runs in input order). */
export function groupsEndingBefore(groups: readonly IterationGroup[], at: number): number {
  let lo = 0;
  let hi = groups.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const g = groups[mid]!;
    if (g.indices[g.indices.length - 1]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type State = 'none' | 'lead' | 'assistant' | 'results';

/** Iterations in all groups of a snapshot, so a trigger asked at every call does not sum them again. */
const snapshotIterations = new WeakMap<readonly IterationGroup[], number>();

/** Iterations in `groups` when they are a snapshot of this index (undefined for any other array). */
export function knownIterations(groups: readonly IterationGroup[]): number | undefined {
  return snapshotIterations.get(groups);
}

export class IterationIndex {
  /** Entries read so far. */
  length = 0;
  /** Iterations in all groups. */
  iterations = 0;
  private groups: IterationGroup[] = [];
  private snapshotOf: IterationGroup[] | undefined;
  private state: State = 'none';
  private last: { id: string; role: string; blocks: Entry['blocks'] } | undefined;
  /** Index of each entry id read (the last one when an id repeats, as a lookup over the whole list gives). */
  private readonly at = new Map<string, number>();
  /** First entry holding a call, by call id. */
  private readonly callAt = new Map<string, number>();
  /** Entries whose block names an entry id not read yet: that entry pairs with them when it comes. */
  private readonly waiting = new Map<string, number[]>();
  private readonly system: boolean[] = [];

  /** Whether `entries` begins with the entries this index has read (checked at the last one). */
  continues(entries: readonly Entry[]): boolean {
    if (entries.length < this.length) return false;
    if (!this.last) return true;
    const entry = entries[this.length - 1]!;
    return entry.id === this.last.id && entry.role === this.last.role && entry.blocks === this.last.blocks;
  }

  /** Reads `entries` from `length` on. */
  advance(entries: readonly Entry[]): void {
    for (let j = this.length; j < entries.length; j++) this.read(entries[j]!, j);
  }

  /** The groups of the entries read, oldest first (a new array when they changed since the last call). */
  snapshot(): IterationGroup[] {
    if (!this.snapshotOf) {
      this.snapshotOf = this.groups.slice();
      snapshotIterations.set(this.snapshotOf, this.iterations);
    }
    return this.snapshotOf;
  }

  private read(entry: Entry, j: number): void {
    this.snapshotOf = undefined;
    const system = entry.role === 'system' && entry.kind === 'message';
    this.system[j] = system;
    if (!system) this.place(entry, j);
    this.at.set(entry.id, j);
    for (const lo of this.waiting.get(entry.id) ?? []) this.link(lo, j);
    this.waiting.delete(entry.id);
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        if (!this.callAt.has(block.callId)) this.callAt.set(block.callId, j);
        if (block.resultEntryId !== undefined) this.pair(block.resultEntryId, j);
      } else if (block.type === 'tool_result') {
        if (block.callEntryId !== undefined) this.pair(block.callEntryId, j);
        else {
          const call = this.callAt.get(block.callId);
          if (call !== undefined) this.link(call, j);
        }
      }
    }
    this.length = j + 1;
    this.last = { id: entry.id, role: entry.role, blocks: entry.blocks };
  }

  /** Entry `j` names entry `id` as its partner: pair them now, or when that entry is read. */
  private pair(id: string, j: number): void {
    const other = this.at.get(id);
    if (other !== undefined) this.link(other, j);
    else {
      const list = this.waiting.get(id);
      if (list) list.push(j);
      else this.waiting.set(id, [j]);
    }
  }

  /** The newest entry `j` follows the iteration state machine of `scanIterationGroups`. */
  private place(entry: Entry, j: number): void {
    if (entry.blocks.some((b) => b.type === 'tool_result')) {
      if (this.state === 'none') this.open(0);
      this.state = 'results';
    } else if (entry.role === 'assistant') {
      if (this.state === 'none' || this.state === 'results') this.open(1);
      else if (this.state === 'lead') this.recount(1);
      this.state = 'assistant';
    } else {
      if (this.state !== 'lead') this.open(0);
      this.state = 'lead';
    }
    const top = this.groups[this.groups.length - 1]!;
    this.groups[this.groups.length - 1] = { ...top, indices: [...top.indices, j] };
  }

  private open(count: number): void {
    this.groups.push({ indices: [], count, first: this.iterations + 1 });
    this.iterations += count;
  }

  /** The last raw group (opened by a user message) became an iteration. */
  private recount(count: number): void {
    const top = this.groups[this.groups.length - 1]!;
    this.groups[this.groups.length - 1] = { ...top, count: top.count + count };
    this.iterations += count;
  }

  /**
   * Entries `a` and the newest `j` are a call and its result: no cut may fall between them, so
   * every group from the one holding the older entry on becomes one (a system entry is in no group).
   */
  private link(a: number, j: number): void {
    const lo = Math.min(a, j);
    if (lo === j || this.system[lo]) return;
    let k = this.groups.length - 1;
    let low = 0;
    let high = k;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.groups[mid]!.indices[0]! <= lo) low = mid;
      else high = mid - 1;
    }
    k = low;
    if (k >= this.groups.length - 1) return;
    const merged = this.groups.slice(k);
    this.groups.length = k;
    this.groups.push({
      indices: merged.flatMap((g) => g.indices),
      count: merged.reduce((n, g) => n + g.count, 0),
      first: merged[0]!.first,
    });
  }
}

/** A few indices per branch root: replays of several configurations may read the same branch in turn. */
const INDICES_PER_ROOT = 4;
const cache = new WeakMap<Entry, IterationIndex[]>();

/**
 * The iteration groups of `entries`, from the index of the longest prefix already read (entries
 * are immutable; a prefix is recognized by its last entry's id and blocks).
 */
export function indexedIterationGroups(entries: readonly Entry[]): IterationGroup[] {
  const root = entries[0];
  if (!root) return [];
  const indices = cache.get(root) ?? [];
  let best: IterationIndex | undefined;
  for (const index of indices) if (index.continues(entries) && (!best || index.length > best.length)) best = index;
  if (!best) {
    best = new IterationIndex();
    indices.unshift(best);
    if (indices.length > INDICES_PER_ROOT) indices.pop();
    cache.set(root, indices);
  }
  best.advance(entries);
  return best.snapshot();
}
