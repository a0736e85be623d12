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
 * What it knows about each iteration and the level bookkeeping are in session-levels.ts.
 * Pure and deterministic; the entries are only read.
 */
import type { Entry } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { BlockBuilder, chunkOf } from './blocks.ts';
import { applyRepair, repairLayout, type TileRules } from './layout.ts';
import { foldEvery } from './importance.ts';
import { MentionIndex, mentionWords } from './mentions.ts';
import { RECALL_NEAREST } from './nearness.ts';
import type { FoldOptions } from './options.ts';
import { searchBlocks } from './recall.ts';
import { RetrievedZone } from './retrieval.ts';
import { SessionLevels } from './session-levels.ts';
import { dynamicTokens, zoneUsage } from './zones.ts';
import type { FoldedBlock, FoldRun, FoldTrigger, KeyMoment, Level, Retrieval, SummaryCache } from './types.ts';

/** Budget-flow rounds per fold at most (each promotes one chunk). */
const MAX_FLOW_ROUNDS = 10_000;

function* rangeOf(from: number, to: number): Generator<number> {
  for (let i = from; i <= to; i++) yield i;
}

export class FoldSessionError extends Error {
  override name = 'FoldSessionError';
}

export class FoldSession extends SessionLevels {
  private readonly builder: BlockBuilder;
  private readonly index = new MentionIndex();
  private readonly zone: RetrievedZone;
  /** Committed top-level blocks, as of the last fold (later iterations are pending at L0). */
  private layout: FoldedBlock[] = [];
  private layoutTokens = 0;
  private layoutLong = 0;
  private pending = 0;
  private lastFold = 0;
  /** The context was above pressureRatio after the last iteration (F4: the pressure trigger fires on crossing it). */
  private above = false;
  private readonly rules: TileRules;

  constructor(o: FoldOptions, cache: SummaryCache, counter: TokenCounter) {
    super(o, cache, counter);
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
      touchedBlock: (block) => this.index.wake(block),
    });
    this.rules = { levels: this.levels, chunk: (level) => chunkOf(o, level as Level), phaseEnds: this.phaseEnds };
  }

  /** Digests computed so far (the rest came from the cache). */
  get summariesMade(): number {
    return this.builder.made;
  }

  private get window(): number {
    return this.o.contextWindow;
  }

  /**
   * Appends the next iteration (its entries in order, as `toIterations` cuts them, and one token
   * count per entry) and replays it: recalls, fades and the fold its trigger calls for.
   */
  push(entries: readonly Entry[], counts: ArrayLike<number>): void {
    if (entries.length === 0) throw new FoldSessionError('An iteration needs at least one entry.');
    if (counts.length !== entries.length) throw new FoldSessionError(`Token counts cover ${counts.length} entries but the iteration has ${entries.length}; count the same entries.`);
    const now = this.append(entries, counts);
    this.pending += this.infos[now]!.tokens;
    this.step(now);
  }

  private step(now: number): void {
    const info = this.infos[now]!;
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

  /** Distance levels of the iterations that are due, then the partition flows. */
  private fold(now: number): void {
    const o = this.o;
    this.foldByDistance(now);
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
      // Below the bar and not retrieved: it stays so until a recall touches it (mentions.ts).
      else this.index.sleep(block);
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
