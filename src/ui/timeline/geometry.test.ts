// Unit tests of the fold timeline's pure geometry: zoom, pan, cell runs, block rects, the retrieved strip, hit testing.
import { describe, expect, it } from 'vitest';
import { syntheticTimeline } from './bench-data.ts';
import {
  blockRects,
  cellRuns,
  clampViewport,
  fitViewport,
  hitTest,
  iterationAt,
  LAYOUT,
  MAX_PX_PER_ITERATION,
  pan,
  planTimeline,
  RETRIEVED_MAX_LANES,
  RETRIEVED_MIN_PX,
  retrievedRects,
  ticks,
  truncateToFit,
  visibleRange,
  xOf,
  zoomAt,
} from './geometry.ts';
import { retrievedLabel } from './RetrievedLayer.tsx';
import type { TimelineBlock, TimelineRetrieval } from './types.ts';

const block = (id: string, from: number, to: number, depth = 0): TimelineBlock => ({
  id,
  level: 2,
  from,
  to,
  title: id,
  depth,
  tokens: 100,
  importance: 0.5,
});

describe('viewport', () => {
  it('maps iterations to x and back', () => {
    const viewport = { start: 10.5, pxPerIteration: 4 };
    expect(xOf(viewport, 10.5)).toBe(0);
    expect(xOf(viewport, 20)).toBe(38);
    expect(iterationAt(viewport, 38)).toBe(20);
  });

  it('computes the visible integer range, clamped to the run', () => {
    expect(visibleRange({ start: 10.5, pxPerIteration: 4 }, 100, 1000)).toEqual({ from: 10, to: 35 });
    expect(visibleRange({ start: 0, pxPerIteration: 1 }, 100, 50)).toEqual({ from: 0, to: 49 });
    expect(visibleRange({ start: 0, pxPerIteration: 1 }, 100, 0)).toEqual({ from: 0, to: -1 });
  });

  it('fits the whole run and never zooms out further', () => {
    const fit = fitViewport(1000, 100_000);
    expect(fit.pxPerIteration).toBe(0.01);
    expect(zoomAt(fit, 0.1, 500, 1000, 100_000)).toEqual(fit);
    expect(visibleRange(fit, 1000, 100_000)).toEqual({ from: 0, to: 99_999 });
  });

  it('keeps the anchor fixed when zooming', () => {
    const viewport = { start: 1000, pxPerIteration: 0.5 };
    const anchorX = 300;
    const before = iterationAt(viewport, anchorX);
    const zoomed = zoomAt(viewport, 3, anchorX, 1000, 100_000);
    expect(zoomed.pxPerIteration).toBeCloseTo(1.5);
    expect(iterationAt(zoomed, anchorX)).toBeCloseTo(before, 9);
  });

  it('clamps zoom-in and the start at both ends', () => {
    const zoomed = zoomAt({ start: 0, pxPerIteration: 1 }, 1000, 0, 1000, 100_000);
    expect(zoomed.pxPerIteration).toBe(MAX_PX_PER_ITERATION);
    expect(zoomed.start).toBe(0);
    const end = zoomAt({ start: 99_000, pxPerIteration: 1 }, 2, 1000, 1000, 100_000);
    expect(end.start + 1000 / end.pxPerIteration).toBeLessThanOrEqual(100_000 + 1e-9);
    expect(clampViewport({ start: -5, pxPerIteration: 2 }, 1000, 100_000).start).toBe(0);
  });

  it('pans by pixels and stops at the ends', () => {
    const viewport = { start: 100, pxPerIteration: 2 };
    expect(pan(viewport, 40, 1000, 100_000).start).toBe(120);
    expect(pan(viewport, -1000, 1000, 100_000).start).toBe(0);
    expect(pan(viewport, 1e9, 1000, 100_000).start).toBe(100_000 - 500);
  });
});

describe('cellRuns', () => {
  const levels = Uint8Array.from([0, 0, 1, 1, 1, 4, 0, 2]);

  it('gives one run per iteration at a pixel or more', () => {
    const runs = cellRuns(levels, 1, 6, 3);
    expect(runs).toHaveLength(6);
    expect(runs[0]).toEqual({ from: 1, to: 1, level: 0 });
    expect(runs[4]).toEqual({ from: 5, to: 5, level: 4 });
  });

  it('buckets sub-pixel cells by pixel, keeping the fullest level, and merges neighbours', () => {
    // 0.5 px per iteration: pixels hold iterations [0,1] [2,3] [4,5] [6,7].
    expect(cellRuns(levels, 0, 7, 0.5)).toEqual([
      { from: 0, to: 1, level: 0 },
      { from: 2, to: 5, level: 1 },
      { from: 6, to: 7, level: 0 },
    ]);
  });

  it('covers the range exactly and stays within the pixel budget for 100k iterations', () => {
    const data = syntheticTimeline(100_000);
    const px = 1200 / 100_000;
    const runs = cellRuns(data.levels, 0, 99_999, px);
    expect(runs.length).toBeLessThanOrEqual(1201);
    expect(runs[0]?.from).toBe(0);
    expect(runs[runs.length - 1]?.to).toBe(99_999);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]?.from).toBe((runs[i - 1]?.to ?? 0) + 1);
      expect(runs[i]?.level).not.toBe(runs[i - 1]?.level);
    }
  });

  it('handles empty and out-of-bounds ranges', () => {
    expect(cellRuns(new Uint8Array(0), 0, 10, 0.1)).toEqual([]);
    expect(cellRuns(levels, 6, 100, 0.1)).toEqual([{ from: 6, to: 7, level: 0 }]);
  });
});

describe('blockRects and hitTest', () => {
  const blocks = [block('b', 50, 59, 1), block('a', 40, 79), block('far', 900, 950), block('tiny', 10, 10)];
  const viewport = { start: 45, pxPerIteration: 1 };

  it('keeps visible blocks only, clipped, stacked by depth, in time order', () => {
    const rects = blockRects(blocks, viewport, 20, 100, 30);
    expect(rects.map((r) => r.id)).toEqual(['a', 'b']);
    expect(rects[0]).toMatchObject({ x: 0, y: 30, w: 35, h: 20 });
    expect(rects[1]).toMatchObject({ x: 5, y: 50, w: 10, h: 20 });
  });

  it('drops blocks narrower than the minimum and rows below maxY', () => {
    const tiny = [block('tiny', 10, 10)];
    expect(blockRects(tiny, { start: 0, pxPerIteration: 1 }, 20, 100)).toEqual([]);
    expect(blockRects(tiny, { start: 0, pxPerIteration: 2 }, 20, 100).map((r) => r.id)).toEqual(['tiny']);
    expect(blockRects(blocks, viewport, 20, 100, 30, 50).map((r) => r.id)).toEqual(['a']);
  });

  it('finds the block under a point', () => {
    const rects = blockRects(blocks, viewport, 20, 100, 30);
    expect(hitTest(rects, 1, 31)).toBe('a');
    expect(hitTest(rects, 6, 55)).toBe('b');
    expect(hitTest(rects, 20, 55)).toBeUndefined();
    expect(hitTest(rects, 1, 10)).toBeUndefined();
  });
});

describe('retrievedRects', () => {
  const recall = (blockId: string, from: number, to: number, since = 95): TimelineRetrieval => ({
    blockId,
    from,
    to,
    level: 0,
    since,
    until: since + 10,
    trigger: 'recall-implicit',
  });
  const viewport = { start: 40, pxPerIteration: 2 };

  it('spans each recalled block on the strip, with the recall point when it is in view', () => {
    const rects = retrievedRects([recall('a', 50, 59), recall('far', 500, 510)], viewport, 200, 43, 12);
    expect(rects).toHaveLength(1);
    expect(rects[0]).toMatchObject({ id: 'a', x: 20, y: 43, w: 20, h: 12, sinceX: 111 });
    expect(retrievedRects([recall('a', 50, 59, 300)], viewport, 200, 43, 12)[0]?.sinceX).toBeUndefined();
  });

  it('clips to the view but never draws narrower than the minimum, staying inside the width', () => {
    const [clipped] = retrievedRects([recall('a', 30, 45)], viewport, 200, 0, 12);
    expect(clipped).toMatchObject({ x: 0, w: 12 });
    const fit = { start: 0, pxPerIteration: 0.01 };
    const [tiny, atEnd] = retrievedRects([recall('t', 50_000, 50_009), recall('e', 99_990, 99_999)], fit, 1000, 0, 12);
    expect(tiny?.w).toBe(RETRIEVED_MIN_PX);
    expect(tiny!.x).toBeCloseTo(500 + 0.05 - RETRIEVED_MIN_PX / 2, 6);
    expect(atEnd!.x + atEnd!.w).toBeLessThanOrEqual(1000);
    expect(atEnd?.w).toBe(RETRIEVED_MIN_PX);
  });

  it('puts overlapping recalls on lanes that split the strip (for them only), sorted left to right', () => {
    const rects = retrievedRects([recall('child', 52, 55), recall('parent', 50, 59), recall('later', 70, 75)], viewport, 200, 43, 12);
    expect(rects.map((r) => [r.id, r.y, r.h])).toEqual([
      ['parent', 43, 6],
      ['child', 49, 6],
      ['later', 43, 12],
    ]);
    const many = retrievedRects(['a', 'b', 'c', 'd', 'e'].map((id) => recall(id, 50, 59)), viewport, 200, 0, 12);
    expect(new Set(many.map((r) => r.y)).size).toBe(RETRIEVED_MAX_LANES);
    expect(many.every((r) => r.h === 12 / RETRIEVED_MAX_LANES)).toBe(true);
  });

  it('is hit-tested like blocks and labelled 1-based', () => {
    const rects = retrievedRects([recall('a', 50, 59)], viewport, 200, 43, 12);
    expect(hitTest(rects, 25, 50)).toBe('a');
    expect(hitTest(rects, 25, 60)).toBeUndefined();
    expect(retrievedLabel(recall('a', 11, 19, 56))).toBe('Retrieved: iterations 12–20 at L0 (implicit recall at 57, fades at 67)');
  });
});

describe('helpers and plan', () => {
  it('picks 1-2-5 ticks', () => {
    expect(ticks({ start: 0, pxPerIteration: 1 }, 400, 10_000)).toEqual([0, 100, 200, 300]);
    expect(ticks({ start: 0, pxPerIteration: 0.01 }, 1000, 100_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000]);
  });

  it('truncates titles to fit', () => {
    const measure = (s: string) => s.length * 10;
    expect(truncateToFit('hello', 50, measure)).toBe('hello');
    expect(truncateToFit('hello world', 60, measure)).toBe('hello…');
    expect(truncateToFit('hello', 5, measure)).toBe('');
  });

  it('plans a frame of 100k iterations in O(pixels)', () => {
    const data = syntheticTimeline(100_000);
    const width = 1000;
    const plan = planTimeline(data, fitViewport(width, data.iterations), width, 200, 50_000);
    expect(plan.runs.length).toBeLessThanOrEqual(width + 1);
    expect(plan.cursorX).toBeCloseTo(500, 0);
    expect(plan.rects.every((r) => r.y + r.h <= 200 - LAYOUT.axisH)).toBe(true);
    expect(plan.moments.every(({ x }) => x >= 0 && x <= width)).toBe(true);
    expect(plan.retrieved.length).toBe(data.retrieved.length);
    expect(plan.retrieved.length).toBeGreaterThan(1);
    for (const r of plan.retrieved) {
      expect(r.y).toBeGreaterThanOrEqual(LAYOUT.bandY + LAYOUT.bandH);
      expect(r.y + r.h).toBeLessThanOrEqual(LAYOUT.rowsY);
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.x + r.w).toBeLessThanOrEqual(width);
    }
  });

  it('generates deterministic benchmark data', () => {
    const a = syntheticTimeline(5000);
    const b = syntheticTimeline(5000);
    expect(a.levels).toEqual(b.levels);
    expect(a.blocks).toEqual(b.blocks);
    expect(a.retrieved).toEqual(b.retrieved);
    expect(a.retrieved.length).toBeGreaterThanOrEqual(2);
    const ids = new Set(a.blocks.map((blk) => blk.id));
    for (const r of a.retrieved) {
      expect(ids.has(r.blockId)).toBe(true);
      expect(r.since).toBeLessThan(5000);
      expect(r.until).toBeGreaterThan(4999);
    }
    expect(a.levels).toHaveLength(5000);
    for (const blk of a.blocks) {
      expect(blk.from).toBeLessThanOrEqual(blk.to);
      expect(blk.to).toBeLessThan(5000);
    }
  });
});
