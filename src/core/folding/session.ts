/**
 * The folding replay (seed 003), one iteration at a time: `FoldSession.push` takes the next
 * iteration as the agent lived it and decides whether to fold (pressure, critical, adaptive
 * periodic, semantic), what to recall (explicit query, implicit mention, error) and what fades.
 * Levels come from distance, then the partition budgets push the oldest content down (working ->
 * short-term -> long-term -> phase); touching a file again or recalling a block brings its folded
 * iterations one level nearer (F2, nearness.ts). Its cost per iteration follows what changes, not the length
 * of the run: an iteration's level is looked at again only when its distance can have crossed a
 * threshold (a queue keyed by that iteration), zone totals are kept as running sums, and the block
 * layout is repaired only around the iterations whose level rose.
 * Pure and deterministic; the entries are only read.
 */
import type { Entry, ToolCallBlock } from '../journal/entry.ts';
import { compressEntry } from '../strategies/layered/tool-compression.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { BlockBuilder, chunkOf } from './blocks.ts';
import { applyRepair, repairLayout, type TileRules } from './layout.ts';
import { fnv1a64 } from './hash.ts';
import { foldEvery, levelFor } from './importance.ts';
import { MentionIndex, mentionWords } from './mentions.ts';
import { Nearness, RECALL_NEAREST, TOUCH_NEAREST } from './nearness.ts';
import { iterationInfo, keyMomentOf, momentState, type IterationInfo } from './moments.ts';
import type { FoldOptions } from './options.ts';
import { searchBlocks } from './recall.ts';
import { RetrievedZone } from './retrieval.ts';
import { dynamicTokens, zoneUsage } from './zones.ts';
import type { FoldedBlock, FoldEvent, FoldRun, FoldTrigger, Iteration, KeyMoment, Level, Retrieval, SummaryCache } from './types.ts';

/** Budget-flow rounds per fold at most (each promotes one chunk). */
const MAX_FLOW_ROUNDS = 10_000;

function* rangeOf(from: number, to: number): Generator<number> {
  for (let i = from; i <= to; i++) yield i;
}

export class FoldSessionError extends Error {
  override name = 'FoldSessionError';
}

export class FoldSession {
  readonly entries: Entry[] = [];
  readonly counts: number[] = [];
  readonly hashes: string[] = [];
  readonly its: Iteration[] = [];
  readonly infos: IterationInfo[] = [];
  readonly moments: Array<KeyMoment | undefined> = [];
  readonly levels: number[] = [];
  readonly lastAccess: number[] = [];
  readonly accessCount: number[] = [];
  readonly phaseEnds = new Set<number>();
  readonly events: FoldEvent[] = [];
  /** Tool calls by id, first one wins (tool-output elision looks results' calls up here). */
  private readonly calls = new Map<string, ToolCallBlock>();
  /** Tool calls as iteration facts see them: the latest call of an id so far. */
  private readonly infoCalls = new Map<string, ToolCallBlock>();
  /** Iterations whose level rose during the current fold. */
  private readonly risen = new Set<number>();
  private readonly momentsSeen = momentState();
  private readonly l1Memo: number[] = [];
  /** Last iteration that touched each file (F2: touching it again brings its history near). */
  private readonly fileLast = new Map<string, number>();
  /** keyOwn[i]: own (non-system) tokens of the key iterations before i. */
  private readonly keyOwn: number[] = [0];
  private readonly builder: BlockBuilder;
  private readonly index = new MentionIndex();
  private readonly zone: RetrievedZone;
  /** Committed top-level blocks, as of the last fold (later iterations are pending at L0). */
  private layout: FoldedBlock[] = [];
  private layoutTokens = 0;
  private layoutLong = 0;
  private pending = 0;
  /** Iterations whose level rose since the layout was built. */
  private changedSince: number[] = [];
  private lastFold = 0;
  /** Iteration of the last fold (-1: none yet). */
  private foldedAt = -1;
  /** Own tokens of the L0 iterations (working memory) and elided tokens of the L1 ones (short-term). */
  private working = 0;
  private short = 0;
  /** boundary[L]: no non-key iteration before it is at level L or lower (levels fall with age, so this only moves forward). */
  private readonly boundary = [0, 0, 0, 0, 0];
  /** Iteration -> iterations whose distance may cross their level's threshold by then. */
  private readonly due = new Map<number, number[]>();
  /** The iteration each one is queued for (a queue entry for another one is stale). */
  private readonly dueAt: number[] = [];
  /** F2: folded iterations by file, and the ones brought near. */
  private readonly nearness = new Nearness();
  /** The context was above pressureRatio after the last iteration (F4: the pressure trigger fires on crossing it). */
  private above = false;
  private dueDone = -1;
  private readonly rules: TileRules;

  constructor(
    readonly o: FoldOptions,
    readonly cache: SummaryCache,
    readonly counter: TokenCounter,
  ) {
    this.builder = new BlockBuilder(this);
    this.zone = new RetrievedZone({
      o, lastAccess: this.lastAccess, accessCount: this.accessCount, events: this.events,
      layoutBlocks: () => this.layout,
      l1Tokens: (i) => this.l1Tokens(i),
      digestOf: (block) => this.builder.digestOf(block),
      accessed: (from, to, now, trigger) => {
        if (o.recallNear) this.bringNear(rangeOf(from, to), RECALL_NEAREST, now, trigger);
      },
      rangeImportance: (from, to, digest, now) => this.builder.importance(from, to, digest, now).value,
    });
    this.rules = { levels: this.levels, chunk: (level) => chunkOf(o, level as Level), phaseEnds: this.phaseEnds };
  }

  get iterations(): number {
    return this.its.length;
  }

  /** Digests computed so far (the rest came from the cache). */
  get summariesMade(): number {
    return this.builder.made;
  }

  private get window(): number {
    return this.o.contextWindow;
  }

  isKey(i: number): boolean {
    return this.moments[i] !== undefined;
  }

  private own(i: number): number {
    return this.infos[i]!.tokens - this.infos[i]!.systemTokens;
  }

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

  /**
   * The iteration distance is counted from (F2): its own, its last recall, or the last time a file
   * it touched was touched again, whichever is latest.
   */
  private anchor(i: number): number {
    let last = Math.max(i, this.lastAccess[i]!);
    for (const file of this.infos[i]!.files) last = Math.max(last, this.fileLast.get(file) ?? -1);
    return last;
  }

  private threshold(level: number): number {
    const o = this.o;
    return level === 0 ? o.l0Distance : level === 1 ? o.l1Distance : level === 2 ? o.l2Distance : o.l3Distance;
  }

  /** Queues iteration i for the iteration its distance would first exceed its level's threshold. */
  private schedule(i: number): void {
    const level = this.levels[i]!;
    if (level >= 4 || this.isKey(i)) return;
    const at = this.anchor(i) + this.threshold(level) + 1;
    this.dueAt[i] = at;
    const bucket = this.due.get(at);
    if (bucket) bucket.push(i);
    else this.due.set(at, [i]);
  }

  /** Sets a non-key iteration's level, keeping the zone sums and the repair list right. */
  private setLevel(i: number, level: number): void {
    const previous = this.levels[i]!;
    if (previous === 0) this.working -= this.own(i);
    else if (previous === 1) this.short -= this.l1Tokens(i) - this.infos[i]!.systemTokens;
    if (level === 1) this.short += this.l1Tokens(i) - this.infos[i]!.systemTokens;
    this.levels[i] = level;
    this.changedSince.push(i);
    if (level > previous) this.risen.add(i);
    // Lowered: the first iteration at `level` or lower may now be this one.
    else for (let l = level; l < this.boundary.length; l++) if (this.boundary[l]! > i) this.boundary[l] = i;
    this.nearness.moved(i, previous, level, this.infos[i]!.files);
  }

  /**
   * F2: brings each of `candidates` (non-key, before `now`, folded beyond `nearest`) one level
   * nearer, marks it near and queues its next level check from its new anchor; logs a `near` event.
   */
  private bringNear(candidates: Iterable<number>, nearest: number, now: number, trigger: FoldTrigger): void {
    const moved: number[] = [];
    for (const i of candidates) {
      const level = this.levels[i]!;
      if (i >= now || this.isKey(i) || level <= nearest) continue;
      this.setLevel(i, level - 1);
      this.nearness.near.add(i);
      this.schedule(i);
      moved.push(i);
    }
    if (moved.length > 0) this.events.push({ iteration: now, trigger, action: 'near', numbers: { iterations: moved.length, nearest }, iterations: moved });
  }

  /** Raises iteration i to `level` and every older non-key iteration below it (older is at least as folded), except the ones brought near. */
  private raise(i: number, level: number): void {
    for (let j = i; j >= 0; j--) {
      if (this.isKey(j) || (j !== i && this.nearness.near.has(j))) continue;
      if (this.levels[j]! >= level) break;
      this.setLevel(j, level);
    }
  }

  /** First non-key iteration at `level` or lower (or the count of iterations). */
  private boundaryOf(level: number): number {
    let b = this.boundary[level]!;
    while (b < this.its.length && (this.isKey(b) || this.levels[b]! > level)) b++;
    this.boundary[level] = b;
    return b;
  }

  /**
   * Appends the next iteration (its entries in order, as `toIterations` cuts them, and one token
   * count per entry) and replays it: recalls, fades and the fold its trigger calls for.
   */
  push(entries: readonly Entry[], counts: ArrayLike<number>): void {
    if (entries.length === 0) throw new FoldSessionError('An iteration needs at least one entry.');
    if (counts.length !== entries.length) throw new FoldSessionError(`Token counts cover ${counts.length} entries but the iteration has ${entries.length}; count the same entries.`);
    const from = this.entries.length;
    for (let k = 0; k < entries.length; k++) {
      const entry = entries[k]!;
      this.entries.push(entry);
      this.counts.push(counts[k] ?? 0);
      this.hashes.push(fnv1a64(JSON.stringify(entry)));
      for (const block of entry.blocks) if (block.type === 'tool_call' && !this.calls.has(block.callId)) this.calls.set(block.callId, block);
    }
    const now = this.its.length;
    const it: Iteration = { index: now, from, to: this.entries.length - 1, userTurn: false };
    const head = entries[0]!;
    it.userTurn = head.role === 'user' && head.kind === 'message' && !head.flags?.injected && !head.flags?.sidechain && head.blocks.some((b) => b.type === 'text' && b.text.trim().length > 0);
    this.its.push(it);
    const info = iterationInfo(this.entries, it, this.counts, this.infoCalls);
    this.infos.push(info);
    const moment = keyMomentOf(this.entries, it, info, this.o, this.momentsSeen);
    this.moments.push(moment);
    this.levels.push(0);
    this.lastAccess.push(-1);
    this.accessCount.push(0);
    this.l1Memo.push(-1);
    this.dueAt.push(-1);
    this.keyOwn.push(this.keyOwn[now]! + (moment ? this.own(now) : 0));
    this.pending += info.tokens;
    this.working += this.own(now);
    this.step(now);
  }

  private step(now: number): void {
    const info = this.infos[now]!;
    for (const file of info.files) this.fileLast.set(file, now);
    if (info.phaseEnd) this.phaseEnds.add(now);
    this.schedule(now);
    if (this.o.touchNear > 0 && info.files.length > 0) this.bringNear(this.nearness.folded(info.files, this.o.touchNear, this.levels, now), TOUCH_NEAREST, now, 'touch');
    this.recalls(now);
    this.zone.fade(now);
    const before = this.usage(now);
    const pressure = before / this.window;
    const every = foldEvery(pressure, this.o);
    let trigger: FoldTrigger | undefined;
    // F4: above criticalRatio every iteration; crossing pressureRatio once; then the band's interval.
    if (pressure > this.o.criticalRatio) trigger = 'critical';
    else if (pressure > this.o.pressureRatio && !this.above) trigger = 'pressure';
    else if (now - this.lastFold >= every) trigger = 'periodic';
    else if (this.o.semantic && info.phaseEnd) trigger = 'semantic';
    if (!trigger) {
      this.above = pressure > this.o.pressureRatio;
      return;
    }
    this.risen.clear();
    let oldestL1 = 0;
    if (trigger === 'critical') oldestL1 = this.promoteOldest(1, this.o.l2Chunk, now).length || this.promoteOldest(0, this.o.l1Chunk, now).length;
    this.fold(now);
    const changed = this.risen.size;
    const after = this.usage(now);
    this.above = after / this.window > this.o.pressureRatio;
    const action = trigger === 'critical' ? 'fold-oldest-l1' : changed > 0 || after < before ? 'fold' : 'nothing-to-fold';
    this.events.push({
      iteration: now,
      trigger,
      action,
      numbers: { tokensBefore: before, tokensAfter: after, window: this.window, pressure: Math.round(pressure * 1000) / 1000, every, foldedIterations: changed, ...(trigger === 'critical' ? { oldestL1 } : {}) },
    });
    this.lastFold = now;
    this.foldedAt = now;
  }

  private dynamicTokens(now: number): number {
    return dynamicTokens(this.infos, now, this.o, this.counter);
  }

  /** Tokens of the context as of `now`: the layout, the iterations after it (L0), recalls and the dynamic slot. */
  usage(now: number): number {
    return this.layoutTokens + this.pending + this.zone.tokens() + this.dynamicTokens(now);
  }

  /** Raises the oldest non-key iterations at `level` (up to `size` of them, never `now`) one level. */
  private promoteOldest(level: Level, size: number, now: number): number[] {
    const moved: number[] = [];
    for (let i = this.boundaryOf(level); i < now && moved.length < size; i++) {
      if (this.isKey(i)) continue;
      const l = this.levels[i]!;
      if (l > level) continue;
      // Below it: the recent end, unless it is content a touch or recall brought near.
      if (l < level) {
        if (this.nearness.near.has(i)) continue;
        break;
      }
      this.setLevel(i, level + 1);
      moved.push(i);
    }
    return moved;
  }

  /** Distance levels of the iterations that are due (never lower than before; older at least as folded), then the partition flows. */
  private fold(now: number): void {
    const o = this.o;
    for (let t = this.dueDone + 1; t <= now; t++) {
      const bucket = this.due.get(t);
      if (!bucket) continue;
      this.due.delete(t);
      for (const i of bucket) {
        if (this.dueAt[i] !== t) continue;
        const level = levelFor(now - this.anchor(i), o);
        if (level > this.levels[i]!) this.raise(i, level);
        this.schedule(i);
      }
    }
    this.dueDone = now;
    // Working -> short-term -> long-term, oldest first, while a zone is over its budget.
    const w = this.window;
    for (let round = 0; this.working > o.workingShare * w && round < MAX_FLOW_ROUNDS; round++) {
      if (this.promoteOldest(0, o.l1Chunk, now).length === 0) break;
    }
    for (let round = 0; this.short > o.shortTermShare * w && round < MAX_FLOW_ROUNDS; round++) {
      if (this.promoteOldest(1, o.l2Chunk, now).length === 0) break;
    }
    this.relayout(now);
    const longBudget = Math.round(o.longTermShare * w);
    for (let round = 0; this.layoutLong > longBudget && round < MAX_FLOW_ROUNDS; round++) {
      if (this.promoteOldest(2, o.l3Chunk, now).length === 0 && this.promoteOldest(3, o.l4Chunk, now).length === 0) break;
      this.relayout(now);
    }
  }

  private blockLong(block: FoldedBlock): number {
    if (block.level < 2) return 0;
    let system = 0;
    for (let i = block.from; i <= block.to; i++) system += this.infos[i]!.systemTokens;
    return block.tokens.folded - system;
  }

  /** The layout of 0..now repaired around the iterations whose level rose (the committed one is not changed). */
  private repaired(now: number) {
    const changed = [...new Set(this.changedSince)].sort((x, y) => x - y);
    return repairLayout(this.layout, changed, now, this.rules, (from, to, previous) => {
      const level = this.levels[from]! as Level;
      return previous?.level === level && previous.to === to ? previous : this.builder.make(from, to, level, now, true, previous);
    });
  }

  /** Commits the repaired layout: zone totals and the recall index follow the blocks that changed. */
  private relayout(now: number): void {
    const { edits, removed, added } = this.repaired(now);
    for (const block of removed) {
      this.layoutTokens -= block.tokens.folded;
      this.layoutLong -= this.blockLong(block);
      if (block.level >= 2) this.index.remove(block);
    }
    for (const block of added) {
      this.layoutTokens += block.tokens.folded;
      this.layoutLong += this.blockLong(block);
      if (block.level >= 2) this.index.add(block);
    }
    applyRepair(this.layout, edits);
    this.zone.track(added);
    this.pending = 0;
    this.changedSince = [];
  }

  private folded(): FoldedBlock[] {
    return this.layout.filter((block) => block.level >= 2);
  }

  private recalls(now: number): void {
    const info = this.infos[now]!;
    for (const query of info.queries) {
      const hit = searchBlocks(this.folded(), query)[0];
      if (hit) this.zone.recall(hit.block, now, 'recall-explicit');
    }
    for (const missing of info.missing) for (const block of this.index.missing(missing)) this.zone.recall(block, now, 'recall-error');
    const mentioned = this.index.mentioned(info.files, info.text, mentionWords(info.text));
    for (const block of mentioned) {
      if (this.zone.has(block.id)) {
        this.zone.recall(block, now, 'recall-implicit');
        continue;
      }
      if (this.zone.importanceOf(block, now) > this.o.recallImportance) this.zone.recall(block, now, 'recall-implicit');
    }
  }

  /**
   * Recalls a folded block into the retrieved zone at the latest iteration, as an explicit
   * `query_history` would (the user expanding a search hit). Returns false when no top-level
   * folded block has that id.
   */
  recallBlock(blockId: string): boolean {
    const now = this.its.length - 1;
    if (now < 0) return false;
    const find = (blocks: readonly FoldedBlock[]): FoldedBlock | undefined => {
      for (const block of blocks) {
        if (block.id === blockId && block.level >= 2) return block;
        const inner = find(block.children);
        if (inner) return inner;
      }
      return undefined;
    };
    const block = find(this.snapshotLayout(now));
    if (!block) return false;
    this.zone.recall(block, now, 'recall-explicit');
    return true;
  }

  /** The layout as of `now` without committing it, every block's importance as of `now`. */
  private snapshotLayout(now: number): FoldedBlock[] {
    return applyRepair([...this.layout], this.repaired(now).edits).map((block) => this.builder.refreshed(block, now));
  }

  /**
   * Non-key iterations folded less than their distance asked for at the last fold (a self-check
   * of the lazy level pass: always empty unless the engine is wrong).
   */
  underFolded(): number[] {
    const out: number[] = [];
    const at = this.foldedAt;
    for (let i = 0; i <= at; i++) {
      if (!this.isKey(i) && levelFor(at - this.anchor(i), this.o) > this.levels[i]!) out.push(i);
    }
    return out;
  }

  /**
   * What this memory would send a model after the latest iteration, cheaply enough to ask before
   * every call of a replay: the top-level blocks as `snapshot` lays them out (the committed layout
   * repaired around the levels changed since the last fold; each block's importance as of the fold
   * that made it, where `snapshot` refreshes it), the retrieved zone, and the tokens of all that
   * with the dynamic slot. The session is not changed.
   */
  current(): { blocks: () => FoldedBlock[]; retrieved: readonly Retrieval[]; tokens: number } {
    const n = this.its.length;
    if (n === 0) return { blocks: () => [], retrieved: [], tokens: 0 };
    const { edits, removed, added } = this.repaired(n - 1);
    let tokens = this.layoutTokens;
    for (const block of removed) tokens -= block.tokens.folded;
    for (const block of added) tokens += block.tokens.folded;
    return { blocks: () => applyRepair([...this.layout], edits), retrieved: this.zone.retrieved, tokens: tokens + this.zone.tokens() + this.dynamicTokens(n - 1) };
  }

  /** The run as of the latest iteration (the session is not changed: pushing more continues it). */
  snapshot(): FoldRun {
    const n = this.its.length;
    const blocks = n > 0 ? this.snapshotLayout(n - 1) : [];
    let tokensBefore = 0;
    for (const count of this.counts) tokensBefore += count;
    const retrieved = this.zone.tokens();
    return {
      iterations: this.its.map((it) => ({ ...it })),
      levels: Uint8Array.from(this.levels),
      blocks,
      events: [...this.events],
      moments: this.moments.filter((m): m is KeyMoment => m !== undefined),
      partitions: n > 0 ? zoneUsage(blocks, this.infos, this.o, this.zone.tokens(), this.dynamicTokens(n - 1)) : [],
      retrieved: this.zone.retrieved.map((r) => ({ ...r })),
      tokensBefore,
      tokensAfter: n > 0 ? blocks.reduce((sum, b) => sum + b.tokens.folded, 0) + retrieved + this.dynamicTokens(n - 1) : 0,
      summariesMade: this.builder.made,
      cache: this.cache,
    };
  }
}
