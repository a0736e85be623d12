/**
 * Tiling iterations into top-level blocks, and repairing a tiling after some levels changed
 * without redoing the rest. A block is a run of one level, cut on that level's grid and at phase
 * ends; where it ends depends only on the levels from its start to one past its end, so blocks
 * away from every changed iteration stay exactly as they were.
 */

export interface Span {
  from: number;
  to: number;
}

export interface TileRules {
  levels: ArrayLike<number>;
  /** Iterations per block at a level (Infinity: cut only where the level changes). */
  chunk(level: number): number;
  phaseEnds: ReadonlySet<number>;
}

/** Last iteration of the block that starts at `start` (blocks never reach past `now`). */
export function blockEnd(start: number, now: number, rules: TileRules): number {
  const level = rules.levels[start];
  const size = rules.chunk(level ?? 0);
  for (let i = start + 1; i <= now; i++) {
    if (rules.levels[i] !== level || i % size === 0 || rules.phaseEnds.has(i - 1)) return i - 1;
  }
  return now;
}

/** Every block of iterations start..now. */
export function tileSpans(start: number, now: number, rules: TileRules): Span[] {
  const out: Span[] = [];
  while (start <= now) {
    const end = blockEnd(start, now, rules);
    out.push({ from: start, to: end });
    start = end + 1;
  }
  return out;
}

/** First index of the block (in `blocks`, which tile 0..n) holding iteration `at`, searching from `lo`. */
function blockAt<B extends Span>(blocks: readonly B[], at: number, lo: number): number {
  let hi = blocks.length - 1;
  if (hi < lo || blocks[hi]!.to < at) return blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid]!.to < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Repair<B> {
  /** Replacements of old blocks, in order: `count` old blocks from index `at` give way to `blocks`. */
  edits: Array<{ at: number; count: number; blocks: B[] }>;
  removed: B[];
  added: B[];
}

/**
 * How to turn the tiling `old` (of 0..oldTo, oldTo <= now) into the tiling of 0..now, given the
 * sorted iterations whose level changed (`changed`, all <= oldTo). Old blocks are kept where no
 * change can reach them; the iterations after oldTo are tiled anew. `make` builds a block for a
 * span (given the old block that started at the same iteration, when there was one, to reuse what
 * still holds). Apply the edits with `applyRepair`.
 */
export function repairLayout<B extends Span>(old: readonly B[], changed: readonly number[], now: number, rules: TileRules, make: (from: number, to: number, previous: B | undefined) => B): Repair<B> {
  const oldTo = old.length > 0 ? old[old.length - 1]!.to : -1;
  const dirty = oldTo < now ? [...changed, oldTo + 1] : [...changed];
  const edits: Repair<B>['edits'] = [];
  const removed: B[] = [];
  const added: B[] = [];
  let k = 0;
  let d = 0;
  while (d < dirty.length) {
    // A change at x can move the end of the block holding x - 1 (its cut looks one past its end).
    k = blockAt(old, Math.max(0, dirty[d]! - 1), k);
    const edit = { at: k, count: 0, blocks: [] as B[] };
    edits.push(edit);
    let start = k < old.length ? old[k]!.from : oldTo + 1;
    for (;;) {
      const end = blockEnd(start, now, rules);
      let same: B | undefined;
      while (k < old.length && old[k]!.from <= end) {
        const gone = old[k++]!;
        if (gone.from === start) same = gone;
        removed.push(gone);
        edit.count++;
      }
      const block = make(start, end, same);
      edit.blocks.push(block);
      added.push(block);
      while (d < dirty.length && dirty[d]! <= end) d++;
      start = end + 1;
      if (start > now) break;
      const next = old[k];
      if (next && next.from === start && (d >= dirty.length || dirty[d]! > next.to + 1)) break;
    }
    if (start > now) break;
  }
  return { edits, removed, added };
}

/** Applies a repair to `blocks` in place (the last edit first, so indices stay right). */
export function applyRepair<B>(blocks: B[], edits: Repair<B>['edits']): B[] {
  for (let e = edits.length - 1; e >= 0; e--) {
    const edit = edits[e]!;
    blocks.splice(edit.at, edit.count, ...edit.blocks);
  }
  return blocks;
}
