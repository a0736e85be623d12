/**
 * The context a window or masking strategy assembles from its plan: kept journal entries in order,
 * made entries inserted, rewritten entries in place of their originals, with its token count. A
 * replay assembles at nearly every call from one growing branch array, so the items are made once
 * per entry and a context is continued from the last one built where it first differs (its made
 * entries placed afterwards), instead of being made again from the first entry; the replay is told
 * how much of it is the last context's, so it does not compare that part again.
 */
import { contextTokens } from '../compaction/context-tokens.ts';
import { knownKeptItems } from '../compaction/plan-counts.ts';
import type { CompactionInput, ContextEntry, Fate } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';

/** A made entry placed before input index `at` (or at the end when `at` is the input length). */
export interface Insert {
  at: number;
  item: ContextEntry;
}

export function countContext(input: CompactionInput, entries: readonly ContextEntry[]): number {
  return builtTokens.get(entries) ?? contextTokens(input, entries);
}

/**
 * Context items already made for a branch array, by input index: a replay assembles a context at
 * nearly every call from the same entries (one array that grows), and handing back the same item
 * objects lets it see at once what did not change. Items are never edited, so sharing is safe.
 */
interface ItemCache {
  /** The counter the tokens below are in. */
  counter: TokenCounter | undefined;
  journal: ContextEntry[];
  compressed: ContextEntry[];
  /** Tokens of `compressed[i]`'s rewritten entry. */
  compressedTokens: number[];
}

const itemCache = new WeakMap<readonly Entry[], ItemCache>();

function itemsOf(entries: readonly Entry[], counter?: TokenCounter): ItemCache {
  let cache = itemCache.get(entries);
  if (!cache || (counter !== undefined && cache.counter !== undefined && cache.counter !== counter)) {
    itemCache.set(entries, (cache = { counter, journal: [], compressed: [], compressedTokens: [] }));
  }
  cache.counter ??= counter;
  return cache;
}

function journalItem(cache: ContextEntry[], entry: Entry, i: number): ContextEntry {
  const known = cache[i];
  if (known !== undefined && known.entry === entry) return known;
  return (cache[i] = { role: entry.role, entry, origin: 'journal' });
}

/** The input's entries as they are, as context items. */
export function journalItems(input: CompactionInput): ContextEntry[] {
  const cache = itemsOf(input.entries).journal;
  const out = new Array<ContextEntry>(input.entries.length);
  for (let i = 0; i < out.length; i++) out[i] = journalItem(cache, input.entries[i]!, i);
  return out;
}

type Rewritten = ReadonlyArray<{ index: number; entry: Entry }>;

/**
 * The last context built for a branch array without inserts: the next one (the branch grown, the
 * window moved) is the same up to the first entry whose fate or rewrite changed, and is built from
 * there on. `before[i]`: items made from input entries before i; `sum[k]`: tokens of the first k items.
 */
interface Built {
  counter: TokenCounter;
  fates: readonly Fate[];
  rewrites: Rewritten;
  out: ContextEntry[];
  before: Int32Array;
  sum: Float64Array;
  length: number;
}

const lastBuilt = new WeakMap<readonly Entry[], Built>();

/**
 * The latest fates a strategy copied from another plan's and changed only from `from` on. One slot,
 * not a map: each entry would hold its base, and the bases of a whole replay would stay in memory.
 */
let derived: { fates: readonly Fate[]; base: readonly Fate[]; from: number } | undefined;

/** Records that `fates` equal `base` before index `from`, so a context built from `base` is continued from there without comparing them. */
export function fatesDerived(fates: readonly Fate[], base: readonly Fate[], from: number): void {
  derived = { fates, base, from };
}

/** 'keep' repeated: copied from, so a plan's fates start packed (`new Array(n).fill` makes a holey array, slower for every reader). */
const keeps: Fate[] = [];

/** A new fates array of `n` times 'keep'. */
export function allKeep(n: number): Fate[] {
  while (keeps.length < n) keeps.push('keep');
  return keeps.slice(0, n);
}

/** The latest rewrites list a strategy made by extending another: the same objects as `base` for its first `count`. One slot, as above. */
let derivedRewrites: { list: Rewritten; base: Rewritten; count: number } | undefined;

/** Records that `list[0..count)` are `base[0..count)` (the same objects), so the builder need not compare them. */
export function rewritesDerived(list: Rewritten, base: Rewritten, count: number): void {
  derivedRewrites = { list, base, count };
}

/** The last context built by continuing an earlier one: its first `count` items are the very items of `base`. One slot, as above. */
let continued: { out: readonly ContextEntry[]; base: readonly ContextEntry[]; count: number } | undefined;

/**
 * How many first items `items` is known to share with `base` (the same objects), without comparing
 * them: a context built by continuing `base` shares everything before its first change. A lower
 * bound (0 when nothing is known): the items after it may be equal too.
 */
export function sharedPrefix(items: readonly ContextEntry[], base: readonly ContextEntry[]): number {
  const c = continued;
  return c !== undefined && c.out === items && c.base === base ? Math.min(c.count, items.length, base.length) : 0;
}
/** Tokens of contexts `buildEntries` counted as it built them (what `contextTokens` gives). */
const builtTokens = new WeakMap<readonly ContextEntry[], number>();

/**
 * Kept journal entries in order, with the made entries inserted where the plan put them and, for a
 * `compress` fate, the entry's rewrite (masking, clearing): a map by input index, or the rewrites
 * ascending by index.
 */
export function buildEntries(
  input: CompactionInput, fates: readonly Fate[], inserts: readonly Insert[],
  rewrites: ReadonlyMap<number, Entry> | Rewritten = new Map(),
): ContextEntry[] {
  const list = Array.isArray(rewrites) ? (rewrites as Rewritten) : (rewrites as ReadonlyMap<number, Entry>).size === 0 ? [] : undefined;
  if (inserts.length === 0 && list) return buildFrom(input, fates, list);
  const sorted = inserts.length > 1 ? [...inserts].sort((a, b) => a.at - b.at) : inserts;
  // Made entries placed into the context built without them (continued from the last one): the same items, in the same order.
  if (list && sorted.every((x) => x.item.origin !== 'journal' && !Number.isNaN(x.at))) return withInserts(input, buildFrom(input, fates, list), sorted);
  const out: ContextEntry[] = [];
  const cache = itemsOf(input.entries, input.counter);
  const entries = input.entries;
  const map = list ? undefined : (rewrites as ReadonlyMap<number, Entry>);
  let r = 0;
  let k = 0;
  for (let i = 0; i < entries.length; i++) {
    while (k < sorted.length && sorted[k]!.at <= i) out.push(sorted[k++]!.item);
    const fate = fates[i];
    if (fate === 'keep') out.push(journalItem(cache.journal, entries[i]!, i));
    else if (fate === 'compress') {
      let rewritten: Entry | undefined;
      if (list) {
        while (r < list.length && list[r]!.index < i) r++;
        rewritten = list[r]?.index === i ? list[r]!.entry : undefined;
      } else {
        rewritten = map!.get(i);
      }
      out.push(compressedItem(input, cache, i, rewritten).item);
    }
  }
  while (k < sorted.length) out.push(sorted[k++]!.item);
  return out;
}

/**
 * `base` (built from `input` by `buildFrom`, the last build for its branch array) with the made
 * entries of `sorted` placed as `buildEntries` places them: each before the items of the entries
 * from its index on. One allocation; the items after each insert are moved along once.
 */
function withInserts(input: CompactionInput, base: ContextEntry[], sorted: readonly Insert[]): ContextEntry[] {
  const n = input.entries.length;
  const before = lastBuilt.get(input.entries)!.before;
  const at = sorted.map((x) => before[Math.min(n, Math.max(0, Math.ceil(x.at)))]!);
  const out = base.concat(sorted.map((x) => x.item));
  let tokens = builtTokens.get(base)!;
  let kept = base.length;
  for (let k = sorted.length - 1; k >= 0; k--) {
    const p = at[k]!;
    out.copyWithin(p + k + 1, p, k + 1 < sorted.length ? at[k + 1]! : base.length);
    const item = sorted[k]!.item;
    out[p + k] = item;
    tokens += contextTokens(input, [item]);
    if (item.origin === 'compressed') kept++;
  }
  knownKeptItems(out, kept);
  builtTokens.set(out, tokens);
  return out;
}

/** The item for a `compress` fate, with its tokens. A compress fate always has its rewrite; falling back to the journal entry keeps the pair whole. */
function compressedItem(input: CompactionInput, cache: ItemCache, i: number, rewritten: Entry | undefined): { item: ContextEntry; tokens: number } {
  const entry = input.entries[i]!;
  if (!rewritten) return { item: journalItem(cache.journal, entry, i), tokens: input.tokens.countAt(i) };
  const known = cache.compressed[i];
  if (known !== undefined && known.entry === rewritten) return { item: known, tokens: cache.compressedTokens[i]! };
  const item: ContextEntry = { role: entry.role, entry: rewritten, origin: 'compressed' };
  cache.compressed[i] = item;
  const tokens = contextTokens(input, [item]);
  cache.compressedTokens[i] = tokens;
  return { item, tokens };
}

/** `buildEntries` without inserts, continuing the last context built for the same branch array where it first differs. */
function buildFrom(input: CompactionInput, fates: readonly Fate[], list: Rewritten): ContextEntry[] {
  const entries = input.entries;
  const n = entries.length;
  const memo = lastBuilt.get(entries);
  let d = 0;
  if (memo && memo.length <= n && memo.counter === input.counter) {
    const mf = memo.fates;
    const hint = derived;
    if (hint && hint.fates === fates && hint.base === mf) d = Math.min(hint.from, memo.length);
    else while (d < memo.length && fates[d] === mf[d]) d++;
    derived = undefined;
    const ml = memo.rewrites;
    const both = Math.min(ml.length, list.length);
    // The same list (a run that grows at its end), or one known to extend it: no need to compare what is known equal.
    const hintR = derivedRewrites;
    derivedRewrites = undefined;
    let r = ml === list ? both : hintR !== undefined && hintR.list === list && hintR.base === ml ? Math.min(hintR.count, both) : 0;
    while (r < both && ml[r] === list[r]) r++;
    if (r < ml.length) d = Math.min(d, ml[r]!.index);
    if (r < list.length) d = Math.min(d, list[r]!.index);
    d = Math.max(0, Math.min(d, memo.length));
  }
  const reuse = memo !== undefined && memo.counter === input.counter && memo.length <= n && d > 0;
  const keep = reuse ? memo.before[d]! : 0;
  // The items from `d` on; joined to the `keep` reused ones after the walk, in one allocation.
  const tail: ContextEntry[] = [];
  // The last build is replaced by this one: its arrays are continued in place (grown when short).
  let before = reuse ? memo.before : new Int32Array(n + 1);
  let sum = reuse ? memo.sum : new Float64Array(n + 1);
  if (!reuse) d = 0;
  if (before.length < n + 1) before = grown(before, n + 1, Int32Array);
  if (sum.length < n + 1) sum = grown(sum, n + 1, Float64Array);
  const cache = itemsOf(entries, input.counter);
  let tokens = sum[keep]!;
  let r = firstRewriteFrom(list, d);
  for (let i = d; i < n; i++) {
    before[i] = keep + tail.length;
    const fate = fates[i];
    if (fate === 'keep') {
      tail.push(journalItem(cache.journal, entries[i]!, i));
      tokens += input.tokens.countAt(i);
    } else if (fate === 'compress') {
      while (r < list.length && list[r]!.index < i) r++;
      const made = compressedItem(input, cache, i, list[r]?.index === i ? list[r]!.entry : undefined);
      tail.push(made.item);
      tokens += made.tokens;
    } else continue;
    sum[keep + tail.length] = tokens;
  }
  before[n] = keep + tail.length;
  const out = reuse ? continuedItems(memo.out, keep, tail) : tail;
  lastBuilt.set(entries, { counter: input.counter, fates, rewrites: list, out, before, sum, length: n });
  continued = reuse ? { out, base: memo.out, count: keep } : undefined;
  knownKeptItems(out, out.length);
  builtTokens.set(out, tokens);
  return out;
}

/**
 * `base[0..keep)` then `tail`, as one new array: `base` is copied once at its full length and the tail
 * moved into place (a copy of the prefix pushed onto would be copied again as it grows, and these
 * lists are as long as the branch).
 */
function continuedItems(base: readonly ContextEntry[], keep: number, tail: readonly ContextEntry[]): ContextEntry[] {
  const out = base.concat(tail);
  if (keep < base.length) {
    out.copyWithin(keep, base.length);
    out.length = keep + tail.length;
  }
  return out;
}

function grown<T extends Int32Array | Float64Array>(array: T, size: number, make: new (length: number) => T): T {
  const next = new make(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

function firstRewriteFrom(list: Rewritten, from: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.index < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
