/**
 * Building folded blocks (F1, F5) for a folding session: a span of iterations at one level with its
 * digest (cached by source hash, F12), importance (F8), the text the level shows and its tokens, and
 * nested children for chapters and phases. Ranges are memoized: the journal only grows, so the same
 * range always holds the same entries and is hashed and counted once.
 */
import type { Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { digestEntries, levelText, mergeBlockDigests, storageRef } from './digest.ts';
import { fnvFeed, fnvHex, fnvStart, type FnvState } from '../hash.ts';
import { importance, importanceFactors } from './importance.ts';
import type { IterationInfo } from './moments.ts';
import type { FoldOptions } from './options.ts';
import type { BlockDigest, FoldedBlock, FoldedBlockType, Iteration, Level, SummaryCache } from './types.ts';

const TYPES: readonly FoldedBlockType[] = ['full', 'elided', 'summary', 'chapter', 'phase'];
const EMPTY_DIGEST: BlockDigest = { title: '', content: '', outcome: '', keywords: [], entities: [], stateChanges: [], keyActions: [], errors: 0, changedFiles: 0 };

/** What a block needs to know about the session it belongs to. */
export interface BlockSource {
  readonly entries: readonly Entry[];
  readonly its: readonly Iteration[];
  readonly infos: readonly IterationInfo[];
  readonly hashes: readonly string[];
  readonly phaseEnds: ReadonlySet<number>;
  readonly accessCount: ArrayLike<number>;
  readonly lastAccess: ArrayLike<number>;
  readonly o: FoldOptions;
  readonly counter: TokenCounter;
  readonly cache: SummaryCache;
  /** Tokens of iteration i with its tool outputs elided (L1). */
  l1Tokens(i: number): number;
}

export interface RangeImportance {
  value: number;
  lastAccessed: number | null;
  accessCount: number;
}

/** Iterations per block at a level (L0 blocks are cut only where the level changes). */
export function chunkOf(o: FoldOptions, level: Level): number {
  return level === 1 ? o.l1Chunk : level === 2 ? o.l2Chunk : level === 3 ? o.l3Chunk : level === 4 ? o.l4Chunk : Infinity;
}

export class BlockBuilder {
  /** Digests computed (not found in the cache). */
  made = 0;
  private readonly hashMemo = new Map<string, string>();
  /** Hash state of the longest range hashed from each first entry. */
  private readonly hashRuns = new Map<number, { to: number; state: FnvState }>();
  /** First and last timestamp of each iteration (NaN: none), filled on demand. */
  private readonly times: Array<[number, number] | undefined> = [];
  private readonly textMemo = new Map<string, { text: string; tokens: number }>();
  /** Blocks made without their digest. */
  private readonly light = new WeakSet<FoldedBlock>();

  constructor(private readonly s: BlockSource) {}

  /**
   * The source hash of entries entryFrom..entryTo: FNV-1a over their per-entry JSON hashes in order
   * (the same bytes identify the same range, without re-reading megabytes at every fold), extending
   * the last hash taken from the same first entry, since blocks grow at their end.
   */
  sourceHash(entryFrom: number, entryTo: number): string {
    const key = `${entryFrom}:${entryTo}`;
    let hash = this.hashMemo.get(key);
    if (hash !== undefined) return hash;
    const run = this.hashRuns.get(entryFrom);
    let state = run && run.to <= entryTo ? run.state : fnvStart();
    for (let p = run && run.to <= entryTo ? run.to + 1 : entryFrom; p <= entryTo; p++) state = fnvFeed(state, this.s.hashes[p]!);
    this.hashRuns.set(entryFrom, { to: entryTo, state });
    this.hashMemo.set(key, (hash = fnvHex(state)));
    return hash;
  }

  /**
   * The digest of iterations from..to, built the way the seed builds its levels: one iteration from
   * its entries, a summary (one l2Chunk cell between phase ends) from its iterations' digests, a
   * chapter or phase from its cells'. A block that grows by an iteration costs that iteration and
   * one merge, never a re-read of all its entries.
   */
  digest(hash: string, from: number, to: number): BlockDigest {
    const cached = this.s.cache.get(hash);
    if (cached) return cached;
    const { its } = this.s;
    const part = (a: number, b: number) => this.digest(this.sourceHash(its[a]!.from, its[b]!.to), a, b);
    let digest: BlockDigest;
    if (from === to) digest = digestEntries(this.s.entries.slice(its[from]!.from, its[to]!.to + 1));
    else {
      const cells = this.split(from, to, this.s.o.l2Chunk);
      digest = mergeBlockDigests(cells.length > 1 ? cells.map(([a, b]) => part(a, b)) : Array.from({ length: to - from + 1 }, (_, k) => part(from + k, from + k)));
    }
    this.s.cache.set(hash, digest);
    this.made++;
    return digest;
  }

  /** The cached digest of a block (undefined when it was made without one). */
  digestOf(block: Pick<FoldedBlock, 'sourceHash'>): BlockDigest | undefined {
    return this.s.cache.get(block.sourceHash);
  }

  importance(from: number, to: number, digest: BlockDigest, now: number): RangeImportance {
    let access = 0;
    let last = -1;
    for (let i = from; i <= to; i++) {
      access = Math.max(access, this.s.accessCount[i]!);
      last = Math.max(last, this.s.lastAccess[i]!);
    }
    const f = importanceFactors(to, now, access, digest.errors, digest.changedFiles, this.s.o.stateScale);
    return { value: Math.round(importance(f, this.s.o) * 1000) / 1000, lastAccessed: last >= 0 ? last : null, accessCount: access };
  }

  private text(level: Level, digest: BlockDigest, range: { from: number; to: number; entryFrom: number; entryTo: number }, important: boolean): { text: string; tokens: number } {
    if (level < 2) return { text: '', tokens: 0 };
    const key = `${range.from}:${range.to}:${level}:${important ? 1 : 0}`;
    let memo = this.textMemo.get(key);
    if (!memo) {
      const text = levelText(level, digest, range, important);
      this.textMemo.set(key, (memo = { text, tokens: text ? this.s.counter.count(text) : 0 }));
    }
    return memo;
  }

  /**
   * The block of iterations from..to at `level`. `light` skips the digest of an L0/L1 block (they
   * show their entries, and recall only searches folded blocks): the replay makes many short-lived
   * ones; `refreshed` fills them in when the run is read.
   */
  make(from: number, to: number, level: Level, now: number, light = false, previous?: FoldedBlock): FoldedBlock {
    const { its, infos } = this.s;
    const entryFrom = its[from]!.from;
    const entryTo = its[to]!.to;
    const sourceHash = this.sourceHash(entryFrom, entryTo);
    const skip = light && level < 2 && !this.s.cache.has(sourceHash);
    const digest = skip ? EMPTY_DIGEST : this.digest(sourceHash, from, to);
    const imp = this.importance(from, to, digest, now);
    let original = 0;
    let system = 0;
    let elided = 0;
    for (let i = from; i <= to; i++) {
      original += infos[i]!.tokens;
      system += infos[i]!.systemTokens;
      if (level === 1) elided += this.s.l1Tokens(i);
    }
    const range = { from, to, entryFrom, entryTo };
    const shown = this.text(level, digest, range, imp.value > this.s.o.recallImportance);
    const folded = level === 0 ? original : level === 1 ? elided : system + shown.tokens;
    let first = Infinity;
    let last = -Infinity;
    for (let i = from; i <= to; i++) {
      const [a, b] = this.timesOf(i);
      if (a < first) first = a;
      if (b > last) last = b;
    }
    const children: FoldedBlock[] = [];
    if (level >= 3) {
      // Children of the same span and level are the same blocks: a growing chapter reuses them.
      const old = new Map((previous?.level === level ? previous.children : []).map((child) => [`${child.from}:${child.to}`, child]));
      const pieces = this.split(from, to, chunkOf(this.s.o, (level - 1) as Level));
      if (pieces.length >= 2) {
        for (const [a, b] of pieces) {
          const same = old.get(`${a}:${b}`);
          const sameStart = same ?? previous?.children.find((child) => child.from === a);
          children.push(same && !this.light.has(same) ? same : this.make(a, b, (level - 1) as Level, now, false, sameStart));
        }
      }
    }
    const block: FoldedBlock = {
      id: `fold_iter${from}_to_${to}`,
      type: TYPES[level]!,
      level,
      from,
      to,
      entryFrom,
      entryTo,
      ...(first <= last ? { timeRange: [first, last] as [number, number] } : {}),
      summary: { title: digest.title, content: digest.content, outcome: digest.outcome },
      keywords: digest.keywords,
      entities: digest.entities,
      stateChanges: digest.stateChanges,
      retrievability: { storageRef: storageRef(entryFrom, entryTo), importance: imp.value, lastAccessed: imp.lastAccessed, accessCount: imp.accessCount },
      text: shown.text,
      tokens: { original, folded },
      sourceHash,
      children,
    };
    if (skip) this.light.add(block);
    return block;
  }

  private timesOf(i: number): [number, number] {
    let times = this.times[i];
    if (!times) {
      const it = this.s.its[i]!;
      times = [Infinity, -Infinity];
      for (let p = it.from; p <= it.to; p++) {
        const t = this.s.entries[p]!.timestamp;
        if (t === undefined) continue;
        if (t < times[0]) times[0] = t;
        if (t > times[1]) times[1] = t;
      }
      this.times[i] = times;
    }
    return times;
  }

  /** from..to cut on the grid of `size` and at phase ends. */
  split(from: number, to: number, size: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    let start = from;
    for (let i = from + 1; i <= to + 1; i++) {
      if (i > to || i % size === 0 || this.s.phaseEnds.has(i - 1)) {
        out.push([start, i - 1]);
        start = i;
      }
    }
    return out;
  }

  /** The block with its importance (and children's) as of `now`; the text is redone only when it depends on it. */
  refreshed(block: FoldedBlock, now: number): FoldedBlock {
    if (this.light.has(block)) return this.make(block.from, block.to, block.level, now);
    const digest = this.digestOf(block);
    if (!digest) return block;
    const imp = this.importance(block.from, block.to, digest, now);
    const shown = this.text(block.level, digest, block, imp.value > this.s.o.recallImportance);
    let system = 0;
    if (block.level >= 2) for (let i = block.from; i <= block.to; i++) system += this.s.infos[i]!.systemTokens;
    return {
      ...block,
      retrievability: { ...block.retrievability, importance: imp.value, lastAccessed: imp.lastAccessed, accessCount: imp.accessCount },
      ...(block.level >= 2 ? { text: shown.text, tokens: { original: block.tokens.original, folded: system + shown.tokens } } : {}),
      children: block.children.map((child) => this.refreshed(child, now)),
    };
  }
}
