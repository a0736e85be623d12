/**
 * Budget's trim units (units.ts) as typed arrays, with the tool chains kept per branch as it grows:
 * a replay plans at nearly every call once the history passes the budget, and joining every call
 * to its results again each time cost more than the rest of the plan. The chains (union-find over
 * the tool links) and each entry's tier are gathered once per entry (branch-scan.ts), and so are
 * the units' sums and member lists, grown with the branch until a new entry joins two earlier units
 * (then summed again). A branch that repeats an entry id (the links name entries by id, and the last
 * one wins) is split by `trimUnits` from scratch instead.
 */
import type { Entry } from '../../journal/entry.ts';
import type { CompactionInput } from '../../compaction/types.ts';
import { BranchScans, type BranchFacts } from '../branch-scan.ts';
import { NumList } from '../num-list.ts';
import { entryTier, lastUserIndex, protection, trimUnits, type ProtectionReason, type ValueTier } from './units.ts';

/** The units of one branch: unit `r` is named by its first entry index. */
export interface UnitView {
  /** Entries of the branch. */
  length: number;
  /** Per entry: the first index of its unit. */
  root: Int32Array;
  /** Per unit (by root): tokens, entries and tier. */
  tokens: Float64Array;
  size: Int32Array;
  tier: Uint8Array;
  /** Per protected unit (by root): why it is never dropped. */
  protectedBy: Map<number, ProtectionReason>;
  /** Roots in ascending order (the order of `trimUnits`). */
  roots: number[];
  /** Per entry, when known: the next entry of its unit, or -1 (a unit's entries from its root on). */
  next?: Int32Array;
  /** When known: the roots of each tier in ascending order with running sums (the drop order, protected units included). */
  order?: TierOrder;
}

/**
 * The roots of each tier, ascending, with their running sums: `tokensBefore[t][p]` and
 * `sizeBefore[t][p]` are the tokens and entries of the first `p` units of tier `t`, and `pos[r]` is
 * root `r`'s place in its tier's list. Budget reads its cut off these instead of walking every unit.
 */
export interface TierOrder {
  roots: [Int32Array, Int32Array, Int32Array];
  tokensBefore: [Float64Array, Float64Array, Float64Array];
  sizeBefore: [Float64Array, Float64Array, Float64Array];
  pos: Int32Array;
}

/** One tier's list and running sums, grown with the branch. */
class TierList {
  readonly roots = new NumList(new Int32Array(64), (n) => new Int32Array(n));
  readonly tokensBefore = new NumList(new Float64Array(64), (n) => new Float64Array(n));
  readonly sizeBefore = new NumList(new Float64Array(64), (n) => new Float64Array(n));

  constructor() {
    this.tokensBefore.push(0);
    this.sizeBefore.push(0);
  }

  /** Appends root `r` with its sums; returns its place. */
  append(r: number, tokens: number, size: number): number {
    const p = this.roots.length;
    this.roots.push(r);
    this.tokensBefore.push(this.tokensBefore.at(p) + tokens);
    this.sizeBefore.push(this.sizeBefore.at(p) + size);
    return p;
  }

  /** The unit at place `p` grew by `tokens` and one entry: every later running sum moves. */
  grow(p: number, tokens: number): void {
    const t = this.tokensBefore.values;
    const z = this.sizeBefore.values;
    for (let q = p + 1; q <= this.roots.length; q++) {
      t[q] = t[q]! + tokens;
      z[q] = z[q]! + 1;
    }
  }
}

class BudgetBranchFacts implements BranchFacts {
  private parent = new Int32Array(64);
  /** Per entry: its own tier (a unit's is the highest of its entries'). */
  private tiers = new Uint8Array(64);
  length = 0;
  /** Entries of role system, and entries flagged pinned: protected whatever the plan's options. */
  readonly system: number[] = [];
  readonly flaggedPinned: number[] = [];
  /** An id occurs twice: links by id resolve to its last entry, which moves as the branch grows. */
  repeatedId = false;
  readonly ids = new Map<string, number>();
  /** Links to an entry id not seen yet: joined when it comes. */
  private readonly waiting = new Map<string, number[]>();
  private readonly latestCall = new Map<string, number>();
  /** Unions that joined two units both made before the entry being added (they move a cached unit's members). */
  merges = 0;
  /** The units of the first `units.length` entries, kept for the next plan on this branch. */
  units: CachedUnits | undefined;

  add(entry: Entry, i: number): void {
    if (i >= this.parent.length) this.grow();
    this.parent[i] = i;
    this.tiers[i] = entryTier(entry);
    this.length = i + 1;
    if (entry.role === 'system') this.system.push(i);
    if (entry.flags?.pinned) this.flaggedPinned.push(i);
    if (this.ids.has(entry.id)) this.repeatedId = true;
    else this.ids.set(entry.id, i);
    for (const w of this.waiting.get(entry.id) ?? []) this.union(w, i);
    this.waiting.delete(entry.id);
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        this.latestCall.set(block.callId, i);
        if (block.resultEntryId !== undefined) this.linkTo(i, block.resultEntryId);
      } else if (block.type === 'tool_result') {
        if (block.callEntryId !== undefined) this.linkTo(i, block.callEntryId);
        else {
          const call = this.latestCall.get(block.callId);
          if (call !== undefined) this.union(i, call);
        }
      }
    }
  }

  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[i] !== root) {
      const next = this.parent[i]!;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }

  tierAt(i: number): ValueTier {
    return this.tiers[i] as ValueTier;
  }

  private linkTo(i: number, id: string): void {
    const j = this.ids.get(id);
    if (j !== undefined) this.union(i, j);
    else {
      const list = this.waiting.get(id);
      if (list) list.push(i);
      else this.waiting.set(id, [i]);
    }
  }

  private union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    if (Math.max(ra, rb) < this.length - 1) this.merges++;
    this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }

  private grow(): void {
    const parent = new Int32Array(this.parent.length * 2);
    parent.set(this.parent);
    this.parent = parent;
    const tiers = new Uint8Array(this.tiers.length * 2);
    tiers.set(this.tiers);
    this.tiers = tiers;
  }
}

/**
 * Per-entry roots and per-unit sums of a branch's first `length` entries, grown in place as the
 * branch grows: a new entry either starts a unit or joins one, which only adds to that unit's sums.
 * Valid while no union joined two earlier units (`merges`) and the counts are the same index.
 */
class CachedUnits {
  length = 0;
  root = new Int32Array(64);
  tokens = new Float64Array(64);
  size = new Int32Array(64);
  tier = new Uint8Array(64);
  next = new Int32Array(64);
  /** Per unit (by root): its last entry so far. */
  last = new Int32Array(64);
  /** Per unit (by root): its place in its tier's list. */
  pos = new Int32Array(64);
  readonly roots: number[] = [];
  private tiers: [TierList, TierList, TierList] = [new TierList(), new TierList(), new TierList()];

  constructor(readonly key: object, readonly merges: number) {}

  extend(facts: BudgetBranchFacts, n: number, counts: CompactionInput['tokens']): void {
    if (n > this.root.length) this.grow(n);
    const { root, tokens, size, tier, roots, next, last, pos } = this;
    // A unit whose tier rises moves to another list: the lists are then made again from the units.
    let moved = false;
    for (let i = this.length; i < n; i++) {
      const r = facts.find(i);
      const c = counts.countAt(i);
      const t = facts.tierAt(i);
      root[i] = r;
      next[i] = -1;
      if (r !== i) next[last[r]!] = i;
      last[r] = i;
      tokens[r] = tokens[r]! + c;
      size[r]!++;
      if (r === i) {
        roots.push(i);
        tier[i] = t;
        if (!moved) pos[i] = this.tiers[t].append(i, c, 1);
      } else {
        if (t > tier[r]!) {
          tier[r] = t;
          moved = true;
        } else if (!moved) this.tiers[tier[r]!]!.grow(pos[r]!, c);
      }
    }
    this.length = n;
    if (moved) this.rebuildTiers();
  }

  /** The tier lists with their running sums. Shared with the cache: read before the next extend. */
  order(n: number): TierOrder {
    const [a, b, c] = this.tiers;
    const roots = (l: TierList) => l.roots.values.subarray(0, l.roots.length);
    const tokensBefore = (l: TierList) => l.tokensBefore.values.subarray(0, l.tokensBefore.length);
    const sizeBefore = (l: TierList) => l.sizeBefore.values.subarray(0, l.sizeBefore.length);
    return {
      roots: [roots(a), roots(b), roots(c)],
      tokensBefore: [tokensBefore(a), tokensBefore(b), tokensBefore(c)],
      sizeBefore: [sizeBefore(a), sizeBefore(b), sizeBefore(c)],
      pos: this.pos.subarray(0, n),
    };
  }

  /** The lists made from the units' current sums, roots ascending. */
  private rebuildTiers(): void {
    this.tiers = [new TierList(), new TierList(), new TierList()];
    for (const r of this.roots) this.pos[r] = this.tiers[this.tier[r]! as ValueTier].append(r, this.tokens[r]!, this.size[r]!);
  }

  private grow(n: number): void {
    let cap = this.root.length;
    while (cap < n) cap *= 2;
    const root = new Int32Array(cap);
    root.set(this.root);
    this.root = root;
    const tokens = new Float64Array(cap);
    tokens.set(this.tokens);
    this.tokens = tokens;
    const size = new Int32Array(cap);
    size.set(this.size);
    this.size = size;
    const tier = new Uint8Array(cap);
    tier.set(this.tier);
    this.tier = tier;
    const next = new Int32Array(cap);
    next.set(this.next);
    this.next = next;
    const last = new Int32Array(cap);
    last.set(this.last);
    this.last = last;
    const pos = new Int32Array(cap);
    pos.set(this.pos);
    this.pos = pos;
  }
}

const scans = new BranchScans(() => new BudgetBranchFacts());

/**
 * What the counts are read from: a replay asks with a new prefix index at every call, and every
 * prefix of one index shares its sums (`TokenIndex.sumsKey`: equal keys, equal counts below both sizes).
 */
function countsKey(counts: CompactionInput['tokens']): object {
  return counts.sumsKey;
}

/**
 * The units of `input.entries` with the latest `keepRecent` entries protected (as `trimUnits`).
 * Its arrays are shared with the branch's cache: read them before the next call on the branch.
 */
export function unitView(input: CompactionInput, keepRecent: number): UnitView {
  const { entries, tokens: counts } = input;
  const facts = scans.of(entries);
  if (facts.repeatedId) return viewOf(trimUnits(input, keepRecent), entries.length);
  const n = entries.length;
  let cached = facts.units;
  const key = countsKey(counts);
  if (!cached || cached.key !== key || cached.merges !== facts.merges || cached.length > n) {
    cached = new CachedUnits(key, facts.merges);
    facts.units = cached;
  }
  cached.extend(facts, n, counts);
  const root = cached.root.subarray(0, n);
  const tokens = cached.tokens.subarray(0, n);
  const size = cached.size.subarray(0, n);
  const tier = cached.tier.subarray(0, n);
  const roots = cached.roots.slice();
  const next = cached.next.subarray(0, n);
  // A unit is protected for the reason of its first entry that has one.
  const lastUser = lastUserIndex(entries);
  const recentFrom = n - keepRecent;
  const first = new Map<number, number>();
  const consider = (i: number) => {
    if (i < 0 || i >= n) return;
    const r = root[i]!;
    const known = first.get(r);
    if (known === undefined || i < known) first.set(r, i);
  };
  for (const i of facts.system) consider(i);
  for (const i of facts.flaggedPinned) consider(i);
  if (lastUser !== undefined) consider(lastUser);
  for (const id of input.pinned ?? []) consider(facts.ids.get(id) ?? -1);
  for (let i = Math.max(0, recentFrom); i < n; i++) consider(i);
  const protectedBy = new Map<number, ProtectionReason>();
  for (const [r, i] of first) protectedBy.set(r, protection(entries[i]!, i, lastUser, recentFrom, input.pinned)!);
  return { length: n, root, tokens, size, tier, protectedBy, roots, next, order: cached.order(n) };
}

/** The same view of units split from scratch. */
function viewOf(units: ReturnType<typeof trimUnits>, n: number): UnitView {
  const root = new Int32Array(n);
  const tokens = new Float64Array(n);
  const size = new Int32Array(n);
  const tier = new Uint8Array(n);
  const protectedBy = new Map<number, ProtectionReason>();
  const roots: number[] = [];
  for (const unit of units) {
    const r = unit.indices[0]!;
    roots.push(r);
    for (const i of unit.indices) root[i] = r;
    tokens[r] = unit.tokens;
    size[r] = unit.indices.length;
    tier[r] = unit.tier;
    if (unit.protectedBy) protectedBy.set(r, unit.protectedBy);
  }
  return { length: n, root, tokens, size, tier, protectedBy, roots };
}
