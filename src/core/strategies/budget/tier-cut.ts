/**
 * Where budget trimming stops, read off the tier lists' running sums (unit-view.ts) instead of
 * walking the drop order one unit at a time: a replay trims at nearly every call of a long session,
 * and the walk passed almost every unit each time. Dropping goes lowest tier first, oldest first,
 * skipping protected units, and stops at the first unit after which the kept tokens fit; a binary
 * search over a tier's sums (less the protected units before each place) finds the same unit.
 */
import type { Fate } from '../../compaction/types.ts';
import { countBelow } from '../num-list.ts';
import type { TierOrder, UnitView } from './unit-view.ts';

/** Where the drop order stops. */
export interface TierCut {
  /** Tokens kept. */
  kept: number;
  /** Tiers below `tier` are dropped whole (but their protected units); of `tier`, the units before place `at`. */
  tier: number;
  at: number;
  /** Entries dropped per tier. */
  droppedSize: [number, number, number];
}

/** The protected units of one tier: their places ascending, with running sums. */
interface Protected {
  places: number[];
  tokensBefore: number[];
  sizeBefore: number[];
}

function protectedByTier(view: UnitView, order: TierOrder): [Protected, Protected, Protected] {
  const byTier: [number[], number[], number[]] = [[], [], []];
  for (const root of view.protectedBy.keys()) byTier[view.tier[root] as 0 | 1 | 2].push(root);
  return byTier.map((roots) => {
    roots.sort((a, b) => a - b);
    const tokensBefore = [0];
    const sizeBefore = [0];
    for (const r of roots) {
      tokensBefore.push(tokensBefore[tokensBefore.length - 1]! + view.tokens[r]!);
      sizeBefore.push(sizeBefore[sizeBefore.length - 1]! + view.size[r]!);
    }
    return { places: roots.map((r) => order.pos[r]!), tokensBefore, sizeBefore };
  }) as [Protected, Protected, Protected];
}

/**
 * The cut that dropping droppable units in order, while the kept tokens exceed `target`, reaches
 * from `total` kept; undefined when even dropping them all leaves too many.
 */
export function tierCut(view: UnitView, order: TierOrder, total: number, target: number): TierCut | undefined {
  const prot = protectedByTier(view, order);
  const droppedSize: [number, number, number] = [0, 0, 0];
  let kept = total;
  for (let t = 0; t < 3; t++) {
    if (kept <= target) return { kept, tier: t, at: 0, droppedSize };
    const sums = order.tokensBefore[t]!;
    const sizes = order.sizeBefore[t]!;
    const p = prot[t]!;
    const len = order.roots[t]!.length;
    const all = sums[len]! - p.tokensBefore[p.places.length]!;
    if (kept - all > target) {
      kept -= all;
      droppedSize[t] = sizes[len]! - p.sizeBefore[p.places.length]!;
      continue;
    }
    // The fewest places whose droppable tokens bring `kept` to the target (dropped sums only grow with the place).
    const dropped = (place: number) => sums[place]! - p.tokensBefore[countBelow(p.places, place)]!;
    let lo = 1;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (kept - dropped(mid) <= target) hi = mid;
      else lo = mid + 1;
    }
    droppedSize[t] = sizes[lo]! - p.sizeBefore[countBelow(p.places, lo)]!;
    return { kept: kept - dropped(lo), tier: t, at: lo, droppedSize };
  }
  return undefined;
}

/** Fates from the kept units alone: the protected ones, and the droppable ones from the cut on. */
export function tierKeptFates(view: UnitView, order: TierOrder, next: Int32Array, cut: TierCut): { fates: Fate[]; kept: number[] } {
  const fates = new Array<Fate>(view.length).fill('drop');
  const found: number[] = [];
  const collect = (root: number) => {
    for (let i = root; i >= 0; i = next[i]!) found.push(i);
  };
  for (let t = cut.tier; t < 3; t++) {
    const roots = order.roots[t]!;
    for (let k = t === cut.tier ? cut.at : 0; k < roots.length; k++) {
      const root = roots[k]!;
      if (!view.protectedBy.has(root)) collect(root);
    }
  }
  for (const root of view.protectedBy.keys()) collect(root);
  const sorted = Int32Array.from(found).sort();
  const kept = new Array<number>(sorted.length);
  for (let k = 0; k < sorted.length; k++) {
    const i = sorted[k]!;
    kept[k] = i;
    fates[i] = 'keep';
  }
  return { fates, kept };
}
