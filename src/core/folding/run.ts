/**
 * The folding replay (seed 003): steps through a run iteration by iteration, as the agent would
 * have lived it, and decides when to fold (pressure, critical, adaptive periodic, semantic), what
 * to recall (explicit query, implicit mention, error) and when recalled content fades. Levels come
 * from distance, then the partition budgets push the oldest content down (working -> short-term ->
 * long-term -> phase). Pure and deterministic; the entries are only read.
 */
import type { Entry } from '../journal/entry.ts';
import { callsById, compressEntry } from '../strategies/layered/tool-compression.ts';
import { getEstimator, type TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { TokenIndex } from '../tokens/prefix-sums.ts';
import { digestEntries, levelText, storageRef } from './digest.ts';
import { entryHashes, rangeHash } from './hash.ts';
import { distance, foldEvery, importance, importanceFactors, levelFor } from './importance.ts';
import { toIterations } from './iterations.ts';
import { iterationInfos, keyMoments, type IterationInfo } from './moments.ts';
import { parseFoldOptions, type FoldOptions } from './options.ts';
import { searchBlocks } from './recall.ts';
import type {
  BlockDigest, FoldedBlock, FoldedBlockType, FoldEvent, FoldRun, FoldTrigger, Iteration, KeyMoment, Level, Retrieval, SummaryCache, ZoneUsage,
} from './types.ts';

const TYPES: readonly FoldedBlockType[] = ['full', 'elided', 'summary', 'chapter', 'phase'];
/** Files listed in the dynamic slot. */
const DYNAMIC_FILES = 10;
/** Budget-flow rounds per fold at most (each promotes one chunk). */
const MAX_FLOW_ROUNDS = 10_000;

class Folder {
  readonly its: Iteration[];
  readonly infos: IterationInfo[];
  readonly moments: Array<KeyMoment | undefined>;
  readonly levels: Uint8Array;
  readonly lastAccess: Int32Array;
  readonly accessCount: Uint32Array;
  readonly lastTouch: Int32Array;
  readonly l1Memo: Float64Array;
  readonly hashes: string[];
  readonly calls;
  readonly fileIters = new Map<string, number[]>();
  readonly phaseEnds = new Set<number>();
  readonly events: FoldEvent[] = [];
  retrieved: Retrieval[] = [];
  layout: FoldedBlock[] = [];
  /** Last iteration the layout covers; later ones are pending at L0. */
  layoutTo = -1;
  layoutTokens = 0;
  made = 0;

  constructor(
    readonly entries: readonly Entry[],
    readonly counts: ArrayLike<number>,
    readonly o: FoldOptions,
    readonly cache: SummaryCache,
    readonly counter: TokenCounter,
  ) {
    this.its = toIterations(entries);
    const n = this.its.length;
    this.infos = iterationInfos(entries, this.its, counts);
    this.moments = o.keyMoments ? keyMoments(entries, this.its, this.infos, o) : this.its.map((it) => (o.bookmarks.includes(it.index) ? { iteration: it.index, kind: 'bookmark' as const, label: 'bookmark' } : undefined));
    this.levels = new Uint8Array(n);
    this.lastAccess = new Int32Array(n).fill(-1);
    this.accessCount = new Uint32Array(n);
    this.lastTouch = new Int32Array(n).fill(-1);
    this.l1Memo = new Float64Array(n).fill(-1);
    this.hashes = entryHashes(entries);
    this.calls = callsById(entries);
  }

  get window(): number {
    return this.o.contextWindow;
  }

  isKey(i: number): boolean {
    return this.moments[i] !== undefined;
  }

  /** Tokens of iteration i with its tool outputs elided (L1), system entries included. */
  l1Tokens(i: number): number {
    const memo = this.l1Memo[i]!;
    if (memo >= 0) return memo;
    const it = this.its[i]!;
    let total = 0;
    for (let p = it.from; p <= it.to; p++) {
      const entry = this.entries[p]!;
      const compressed = entry.kind === 'message' ? compressEntry(entry, this.calls) : undefined;
      total += compressed ? Math.min(countEntry(compressed.entry, this.counter).total, this.counts[p] ?? 0) : (this.counts[p] ?? 0);
    }
    this.l1Memo[i] = total;
    return total;
  }

  digest(hash: string, from: number, to: number): BlockDigest {
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const digest = digestEntries(this.entries.slice(this.its[from]!.from, this.its[to]!.to + 1));
    this.cache.set(hash, digest);
    this.made++;
    return digest;
  }

  rangeImportance(from: number, to: number, digest: BlockDigest, now: number): { value: number; lastAccessed: number | null; accessCount: number } {
    let access = 0;
    let last = -1;
    for (let i = from; i <= to; i++) {
      access = Math.max(access, this.accessCount[i]!);
      last = Math.max(last, this.lastAccess[i]!);
    }
    const f = importanceFactors(to, now, access, digest.errors, digest.changedFiles, this.o.stateScale);
    return { value: Math.round(importance(f, this.o) * 1000) / 1000, lastAccessed: last >= 0 ? last : null, accessCount: access };
  }

  chunk(level: Level): number {
    return level === 1 ? this.o.l1Chunk : level === 2 ? this.o.l2Chunk : level === 3 ? this.o.l3Chunk : level === 4 ? this.o.l4Chunk : Infinity;
  }

  makeBlock(from: number, to: number, level: Level, now: number): FoldedBlock {
    const entryFrom = this.its[from]!.from;
    const entryTo = this.its[to]!.to;
    const sourceHash = rangeHash(this.hashes, entryFrom, entryTo);
    const digest = this.digest(sourceHash, from, to);
    const imp = this.rangeImportance(from, to, digest, now);
    let original = 0;
    let system = 0;
    let elided = 0;
    for (let i = from; i <= to; i++) {
      original += this.infos[i]!.tokens;
      system += this.infos[i]!.systemTokens;
      if (level === 1) elided += this.l1Tokens(i);
    }
    const range = { from, to, entryFrom, entryTo };
    const text = levelText(level, digest, range, imp.value > this.o.recallImportance);
    const folded = level === 0 ? original : level === 1 ? elided : system + (text ? this.counter.count(text) : 0);
    const times = this.entries.slice(entryFrom, entryTo + 1).flatMap((e) => (e.timestamp !== undefined ? [e.timestamp] : []));
    const children: FoldedBlock[] = [];
    if (level >= 3) {
      const size = this.chunk((level - 1) as Level);
      const pieces = this.split(from, to, size);
      if (pieces.length >= 2) for (const [a, b] of pieces) children.push(this.makeBlock(a, b, (level - 1) as Level, now));
    }
    return {
      id: `fold_iter${from}_to_${to}`,
      type: TYPES[level]!,
      level,
      from,
      to,
      entryFrom,
      entryTo,
      ...(times.length ? { timeRange: [Math.min(...times), Math.max(...times)] as [number, number] } : {}),
      summary: { title: digest.title, content: digest.content, outcome: digest.outcome },
      keywords: digest.keywords,
      entities: digest.entities,
      stateChanges: digest.stateChanges,
      retrievability: { storageRef: storageRef(entryFrom, entryTo), importance: imp.value, lastAccessed: imp.lastAccessed, accessCount: imp.accessCount },
      text,
      tokens: { original, folded },
      sourceHash,
      children,
    };
  }

  /** from..to cut on the grid of `size` and at phase ends. */
  split(from: number, to: number, size: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    let start = from;
    for (let i = from + 1; i <= to + 1; i++) {
      if (i > to || i % size === 0 || this.phaseEnds.has(i - 1)) {
        out.push([start, i - 1]);
        start = i;
      }
    }
    return out;
  }

  /** Top-level blocks of iterations 0..now: runs of one level, cut on that level's grid and at phase ends. */
  buildLayout(now: number): void {
    const blocks: FoldedBlock[] = [];
    let start = 0;
    for (let i = 1; i <= now + 1; i++) {
      const level = this.levels[start]! as Level;
      if (i > now || this.levels[i] !== level || i % this.chunk(level) === 0 || this.phaseEnds.has(i - 1)) {
        blocks.push(this.makeBlock(start, i - 1, level, now));
        start = i;
      }
    }
    this.layout = blocks;
    this.layoutTo = now;
    this.layoutTokens = blocks.reduce((sum, b) => sum + b.tokens.folded, 0);
  }

  pendingTokens(now: number): number {
    let sum = 0;
    for (let i = this.layoutTo + 1; i <= now; i++) sum += this.infos[i]!.tokens;
    return sum;
  }

  dynamicTokens(now: number): number {
    const files: string[] = [];
    let errors = 0;
    for (let i = now; i >= 0 && now - i <= this.o.l1Distance; i--) {
      for (const file of this.infos[i]!.files) if (!files.includes(file) && files.length < DYNAMIC_FILES) files.push(file);
      errors += this.infos[i]!.errors;
    }
    if (files.length === 0 && errors === 0) return 0;
    return this.counter.count(`Recent files: ${files.join(', ')}\nRecent errors: ${errors}`);
  }

  usage(now: number): number {
    return this.layoutTokens + this.pendingTokens(now) + this.retrieved.reduce((s, r) => s + r.tokens, 0) + this.dynamicTokens(now);
  }

  /** Zone of a level: L0 working, L1 short-term, L2-L4 long-term. */
  zones(now: number): ZoneUsage[] {
    const w = this.window;
    const t = { static: 0, working: 0, short: 0, long: 0 };
    for (const block of this.layout) {
      let system = 0;
      for (let i = block.from; i <= block.to; i++) system += this.infos[i]!.systemTokens;
      t.static += system;
      const own = block.tokens.folded - system;
      if (block.level === 0) t.working += own;
      else if (block.level === 1) t.short += own;
      else t.long += own;
    }
    for (let i = this.layoutTo + 1; i <= now; i++) {
      t.static += this.infos[i]!.systemTokens;
      t.working += this.infos[i]!.tokens - this.infos[i]!.systemTokens;
    }
    const o = this.o;
    return [
      { zone: 'static', tokens: t.static, budget: Math.round(o.staticShare * w) },
      { zone: 'working', tokens: t.working, budget: Math.round(o.workingShare * w) },
      { zone: 'short-term', tokens: t.short, budget: Math.round(o.shortTermShare * w) },
      { zone: 'long-term', tokens: t.long, budget: Math.round(o.longTermShare * w) },
      { zone: 'retrieved', tokens: this.retrieved.reduce((s, r) => s + r.tokens, 0), budget: Math.round(o.retrievedShare * w) },
      { zone: 'dynamic', tokens: this.dynamicTokens(now), budget: Math.round(o.dynamicShare * w) },
    ];
  }

  /** Raises the oldest non-key iterations at `level` (up to `size` of them, never `now`) one level. */
  promoteOldest(level: Level, size: number, now: number): number {
    let moved = 0;
    for (let i = 0; i < now && moved < size; i++) {
      if (this.isKey(i)) continue;
      const l = this.levels[i]!;
      if (l > level) continue;
      if (l < level) break;
      this.levels[i] = level + 1;
      moved++;
    }
    return moved;
  }

  /** Distance levels (never lower than before; older at least as folded), then the partition flows. */
  fold(now: number): void {
    const o = this.o;
    let carry = 0;
    for (let i = now; i >= 0; i--) {
      if (this.isKey(i)) {
        this.levels[i] = 0;
        continue;
      }
      const raw = levelFor(distance(i, now, this.lastAccess[i]!, this.lastTouch[i]!), o);
      const level = Math.max(raw, carry, this.levels[i]!);
      this.levels[i] = level;
      carry = level;
    }
    // Working -> short-term -> long-term, oldest first, while a zone is over its budget.
    const w = this.window;
    let working = 0;
    let short = 0;
    for (let i = 0; i <= now; i++) {
      const own = this.infos[i]!.tokens - this.infos[i]!.systemTokens;
      if (this.levels[i] === 0) working += own;
      else if (this.levels[i] === 1) short += this.l1Tokens(i) - this.infos[i]!.systemTokens;
    }
    for (let round = 0; working > o.workingShare * w && round < MAX_FLOW_ROUNDS; round++) {
      const before = this.levels.slice(0, now + 1);
      if (this.promoteOldest(0, o.l1Chunk, now) === 0) break;
      for (let i = 0; i <= now; i++) {
        if (before[i] === 0 && this.levels[i] === 1) {
          working -= this.infos[i]!.tokens - this.infos[i]!.systemTokens;
          short += this.l1Tokens(i) - this.infos[i]!.systemTokens;
        }
      }
    }
    for (let round = 0; short > o.shortTermShare * w && round < MAX_FLOW_ROUNDS; round++) {
      const before = this.levels.slice(0, now + 1);
      if (this.promoteOldest(1, o.l2Chunk, now) === 0) break;
      for (let i = 0; i <= now; i++) if (before[i] === 1 && this.levels[i] === 2) short -= this.l1Tokens(i) - this.infos[i]!.systemTokens;
    }
    this.buildLayout(now);
    for (let round = 0; round < MAX_FLOW_ROUNDS; round++) {
      const long = this.zones(now).find((z) => z.zone === 'long-term')!;
      if (long.tokens <= long.budget) break;
      if (this.promoteOldest(2, o.l3Chunk, now) === 0 && this.promoteOldest(3, o.l4Chunk, now) === 0) break;
      this.buildLayout(now);
    }
  }

  /** Expands a folded block into the retrieved zone (at L0 if it fits the zone, else L1). */
  recall(block: FoldedBlock, now: number, trigger: FoldTrigger): void {
    const existing = this.retrieved.find((r) => r.blockId === block.id);
    for (let i = block.from; i <= block.to; i++) {
      this.lastAccess[i] = now;
      this.accessCount[i]!++;
    }
    if (existing) {
      existing.until = now + this.o.fadeAfter;
      return;
    }
    const budget = this.o.retrievedShare * this.window - this.retrieved.reduce((s, r) => s + r.tokens, 0);
    let elided = 0;
    for (let i = block.from; i <= block.to; i++) elided += this.l1Tokens(i);
    const level: Level | undefined = block.tokens.original <= budget ? 0 : elided <= budget ? 1 : undefined;
    const numbers = { from: block.from, to: block.to, importance: block.retrievability.importance, budget: Math.round(budget), tokens: level === 0 ? block.tokens.original : elided };
    if (level === undefined) {
      this.events.push({ iteration: now, trigger, action: 'recall-skipped', numbers, blockId: block.id });
      return;
    }
    this.retrieved.push({ blockId: block.id, from: block.from, to: block.to, level, since: now, until: now + this.o.fadeAfter, tokens: numbers.tokens, trigger });
    this.events.push({ iteration: now, trigger, action: 'recall', numbers: { ...numbers, level }, blockId: block.id });
  }

  folded(): FoldedBlock[] {
    return this.layout.filter((block) => block.level >= 2);
  }

  recalls(now: number): void {
    const info = this.infos[now]!;
    for (const query of info.queries) {
      const hit = searchBlocks(this.folded(), query)[0];
      if (hit) this.recall(hit.block, now, 'recall-explicit');
    }
    for (const missing of info.missing) {
      const base = missing.split('/').pop() ?? missing;
      for (const block of this.folded()) {
        if (block.entities.some((e) => e === missing || e.endsWith(`/${base}`) || e === base)) this.recall(block, now, 'recall-error');
      }
    }
    for (const block of this.folded()) {
      const mentioned = block.entities.some((e) => /[./]/.test(e) && (info.files.includes(e) || info.text.includes(e.toLowerCase())));
      if (!mentioned) continue;
      if (this.retrieved.some((r) => r.blockId === block.id)) {
        this.recall(block, now, 'recall-implicit');
        continue;
      }
      const digest = this.cache.get(block.sourceHash);
      const imp = digest ? this.rangeImportance(block.from, block.to, digest, now).value : block.retrievability.importance;
      if (imp > this.o.recallImportance) this.recall(block, now, 'recall-implicit');
    }
  }

  step(now: number, lastFold: number): number {
    const info = this.infos[now]!;
    // State: touching a file again brings the iterations that touched it near (F2).
    for (const file of info.files) {
      const list = this.fileIters.get(file) ?? [];
      for (const i of list) this.lastTouch[i] = now;
      list.push(now);
      this.fileIters.set(file, list);
    }
    if (info.phaseEnd) this.phaseEnds.add(now);
    this.recalls(now);
    this.retrieved = this.retrieved.filter((r) => {
      if (r.until > now) return true;
      this.events.push({ iteration: now, trigger: 'fade', action: 'fade', numbers: { from: r.from, to: r.to, tokens: r.tokens, since: r.since }, blockId: r.blockId });
      return false;
    });
    const before = this.usage(now);
    const pressure = before / this.window;
    const every = foldEvery(pressure, this.o);
    let trigger: FoldTrigger | undefined;
    if (pressure > this.o.criticalRatio) trigger = 'critical';
    else if (pressure > this.o.pressureRatio) trigger = 'pressure';
    else if (now - lastFold >= every) trigger = 'periodic';
    else if (this.o.semantic && info.phaseEnd) trigger = 'semantic';
    if (!trigger) return lastFold;
    const levelsBefore = this.levels.slice(0, now + 1);
    let oldestL1 = 0;
    if (trigger === 'critical') oldestL1 = this.promoteOldest(1, this.o.l2Chunk, now) || this.promoteOldest(0, this.o.l1Chunk, now);
    this.fold(now);
    const after = this.usage(now);
    let changed = 0;
    for (let i = 0; i <= now; i++) if (levelsBefore[i] !== this.levels[i]) changed++;
    const action = trigger === 'critical' ? 'fold-oldest-l1' : changed > 0 || after < before ? 'fold' : 'nothing-to-fold';
    this.events.push({
      iteration: now,
      trigger,
      action,
      numbers: { tokensBefore: before, tokensAfter: after, window: this.window, pressure: Math.round(pressure * 1000) / 1000, every, foldedIterations: changed, ...(trigger === 'critical' ? { oldestL1 } : {}) },
    });
    return now;
  }
}

/**
 * Replays the folding of a run. `tokens` holds one count per entry (a TokenIndex or plain array);
 * `summaries` is the digest cache of an earlier run (F12), returned with this run's additions;
 * `counter` counts the folded texts (default chars/4, use the one `tokens` was counted with).
 */
export function foldRun(
  entries: readonly Entry[],
  tokens: TokenIndex | ArrayLike<number>,
  options: Partial<FoldOptions> | Record<string, unknown> = {},
  summaries: SummaryCache = new Map(),
  counter: TokenCounter = getEstimator('chars4'),
): FoldRun {
  const o = parseFoldOptions(options as Record<string, unknown>);
  const counts: ArrayLike<number> = isTokenIndex(tokens) ? Array.from({ length: tokens.length }, (_, i) => tokens.countAt(i)) : tokens;
  if (counts.length !== entries.length) throw new FoldInputError(`Token counts cover ${counts.length} entries but the run has ${entries.length}; count the same entries.`);
  const folder = new Folder(entries, counts, o, summaries, counter);
  const n = folder.its.length;
  let lastFold = 0;
  for (let now = 0; now < n; now++) lastFold = folder.step(now, lastFold);
  if (n > 0) folder.buildLayout(n - 1);
  let tokensBefore = 0;
  for (let p = 0; p < counts.length; p++) tokensBefore += counts[p] ?? 0;
  return {
    iterations: folder.its,
    levels: folder.levels,
    blocks: folder.layout,
    events: folder.events,
    moments: folder.moments.filter((m): m is KeyMoment => m !== undefined),
    partitions: n > 0 ? folder.zones(n - 1) : [],
    retrieved: folder.retrieved,
    tokensBefore,
    tokensAfter: n > 0 ? folder.usage(n - 1) : 0,
    summariesMade: folder.made,
    cache: summaries,
  };
}

export class FoldInputError extends Error {
  override name = 'FoldInputError';
}

function isTokenIndex(tokens: TokenIndex | ArrayLike<number>): tokens is TokenIndex {
  return typeof (tokens as TokenIndex).countAt === 'function';
}
