/**
 * The retrieved zone of a folding session (F7): folded blocks recalled back into the context, at
 * L0 when they fit the zone's budget (else L1), until they fade `fadeAfter` iterations later. Only
 * a recall that brings content back counts as an access; committed blocks keep their access
 * count here, so a block's importance (F8) is known without scanning its iterations.
 */
import { importance, importanceFactors } from './importance.ts';
import type { FoldOptions } from './options.ts';
import type { RecallTrigger } from './timeline-data.ts';
import type { BlockDigest, FoldedBlock, FoldEvent, Level, Retrieval } from './types.ts';

/** What the zone needs from its session. */
export interface RecallHost {
  readonly o: FoldOptions;
  readonly lastAccess: number[];
  readonly accessCount: number[];
  readonly events: FoldEvent[];
  /** The committed top-level blocks, tiling the iterations in order. */
  layoutBlocks(): readonly FoldedBlock[];
  l1Tokens(i: number): number;
  digestOf(block: FoldedBlock): BlockDigest | undefined;
  /** Importance of iterations from..to from their own access counts (the slow way). */
  rangeImportance(from: number, to: number, digest: BlockDigest, now: number): number;
  /** Iterations from..to were just recalled (F2: they come nearer). */
  accessed?(from: number, to: number, now: number, trigger: RecallTrigger): void;
  /** A committed block's access changed (a recall touched it): its importance may have risen. */
  touchedBlock?(block: FoldedBlock): void;
}

interface Access {
  count: number;
  last: number;
  digest: BlockDigest | undefined;
}

export class RetrievedZone {
  retrieved: Retrieval[] = [];
  /** Most recalls of any iteration of a committed block, its last recall (-1: none) and its digest. */
  private readonly access = new WeakMap<FoldedBlock, Access>();

  constructor(private readonly host: RecallHost) {}

  tokens(): number {
    return this.retrieved.reduce((sum, r) => sum + r.tokens, 0);
  }

  has(blockId: string): boolean {
    return this.retrieved.some((r) => r.blockId === blockId);
  }

  /** Blocks that joined the committed layout: their access so far, from the block itself. */
  track(blocks: readonly FoldedBlock[]): void {
    for (const block of blocks) {
      if (!this.access.has(block)) this.access.set(block, { count: block.retrievability.accessCount, last: block.retrievability.lastAccessed ?? -1, digest: this.host.digestOf(block) });
    }
  }

  /** Importance of a block as of `now` (F8); O(1) for a committed block. */
  importanceOf(block: FoldedBlock, now: number): number {
    const access = this.access.get(block);
    const digest = access?.digest ?? this.host.digestOf(block);
    if (!digest) return block.retrievability.importance;
    if (!access) return this.host.rangeImportance(block.from, block.to, digest, now);
    const f = importanceFactors(block.to, now, access.count, digest.errors, digest.changedFiles, this.host.o.stateScale);
    return Math.round(importance(f, this.host.o) * 1000) / 1000;
  }

  /** Counts a recall of iterations from..to; the committed blocks holding them see it. */
  private touch(from: number, to: number, now: number, trigger: RecallTrigger): void {
    const { lastAccess, accessCount } = this.host;
    let most = 0;
    for (let i = from; i <= to; i++) {
      lastAccess[i] = now;
      most = Math.max(most, ++accessCount[i]!);
    }
    const layout = this.host.layoutBlocks();
    let lo = 0;
    let hi = layout.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (layout[mid]!.to < from) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < layout.length && layout[k]!.from <= to; k++) {
      const access = this.access.get(layout[k]!);
      if (access) this.access.set(layout[k]!, { count: Math.max(access.count, most), last: now, digest: access.digest });
      this.host.touchedBlock?.(layout[k]!);
    }
    this.host.accessed?.(from, to, now, trigger);
  }

  /**
   * Expands a folded block into the zone (at L0 if it fits the zone, else L1), or keeps it there
   * longer when it already is. A recall the zone has no room for is logged and changes nothing.
   */
  recall(block: FoldedBlock, now: number, trigger: RecallTrigger): void {
    const { o, events } = this.host;
    const existing = this.retrieved.find((r) => r.blockId === block.id);
    const importanceNow = this.importanceOf(block, now);
    if (existing) {
      this.touch(block.from, block.to, now, trigger);
      existing.until = now + o.fadeAfter;
      return;
    }
    const budget = o.retrievedShare * o.contextWindow - this.tokens();
    let elided = 0;
    if (block.tokens.original > budget) for (let i = block.from; i <= block.to && elided <= budget; i++) elided += this.host.l1Tokens(i);
    const level: Level | undefined = block.tokens.original <= budget ? 0 : elided <= budget ? 1 : undefined;
    const numbers = { from: block.from, to: block.to, importance: importanceNow, budget: Math.round(budget), tokens: level === 0 ? block.tokens.original : elided };
    if (level === undefined) {
      events.push({ iteration: now, trigger, action: 'recall-skipped', numbers: { ...numbers, tokens: block.tokens.original }, blockId: block.id });
      return;
    }
    this.touch(block.from, block.to, now, trigger);
    this.retrieved.push({ blockId: block.id, from: block.from, to: block.to, level, since: now, until: now + o.fadeAfter, tokens: numbers.tokens, trigger });
    events.push({ iteration: now, trigger, action: 'recall', numbers: { ...numbers, level }, blockId: block.id });
  }

  /** Drops what reached its fade iteration, with a `fade` event each. */
  fade(now: number): void {
    this.retrieved = this.retrieved.filter((r) => {
      if (r.until > now) return true;
      this.host.events.push({ iteration: now, trigger: 'fade', action: 'fade', numbers: { from: r.from, to: r.to, tokens: r.tokens, since: r.since }, blockId: r.blockId });
      return false;
    });
  }
}
