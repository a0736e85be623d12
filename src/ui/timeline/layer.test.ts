// Unit tests of the timeline's drawing helpers: the anchored DOM-layer placement, the cached title
// truncation and the zoom-only test that holds the block layer back while zooming.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntheticTimeline } from './bench-data.ts';
import { blockRects, fitViewport, LAYOUT, pan, planTimeline, truncateToFit, zoomAt, type Viewport } from './geometry.ts';
import { LAYER_SPAN_PX, layerBox, layerOffset, layerOrigin } from './layer-geometry.ts';
import { createTextFitter } from './text-fit.ts';
import { zoomOnlyChange } from './useSettledLayer.ts';

const WIDTH = 1200;
const data = syntheticTimeline(100_000);
const rectsFor = (viewport: Viewport) => blockRects(data.blocks, viewport, LAYOUT.rowH, WIDTH, LAYOUT.rowsY);

describe('layer geometry', () => {
  const zoomed = zoomAt(fitViewport(WIDTH, data.iterations), 8, WIDTH / 2, WIDTH, data.iterations);

  it('puts every button where its rect is on screen', () => {
    const rects = rectsFor(zoomed);
    expect(rects.length).toBeGreaterThan(10);
    const offset = layerOffset(zoomed);
    expect(offset).toBeLessThanOrEqual(0);
    expect(offset).toBeGreaterThan(-LAYER_SPAN_PX);
    for (const rect of rects) {
      const box = layerBox(rect, zoomed, WIDTH);
      expect(box.left + offset).toBeCloseTo(rect.x, 6);
      expect(box.width).toBeCloseTo(rect.w, 6);
      expect(box.top).toBe(rect.y);
      expect(box.height).toBe(rect.h);
    }
  });

  it('keeps the anchor and the boxes of blocks wholly in view bit-identical while panning', () => {
    const inView = (x: number, w: number) => x > 0 && x + w < WIDTH;
    let viewport = zoomed;
    let compared = 0;
    for (let step = 0; step < 20; step++) {
      const next = pan(viewport, 37, WIDTH, data.iterations);
      expect(layerOrigin(next)).toBe(layerOrigin(viewport));
      const before = new Map(rectsFor(viewport).map((rect) => [rect.id, rect]));
      for (const rect of rectsFor(next)) {
        const previous = before.get(rect.id);
        if (!previous || !inView(previous.x, previous.w) || !inView(rect.x, rect.w)) continue;
        expect(layerBox(rect, next, WIDTH)).toEqual(layerBox(previous, viewport, WIDTH));
        compared++;
      }
      viewport = next;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('moves the anchor once per span, keeping offsets bounded at any zoom and start', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 48, noNaN: true }), fc.double({ min: 0, max: 10_000_000, noNaN: true }), (px, start) => {
        const offset = layerOffset({ start, pxPerIteration: px });
        return offset <= 1e-6 && offset > -LAYER_SPAN_PX - 1e-3;
      }),
    );
  });
});

describe('text fitter', () => {
  const measure = (s: string) => s.length * 7;

  it('gives truncateToFit\'s result, measuring each string once', () => {
    const fitter = createTextFitter(measure);
    const titles = data.blocks.slice(0, 50).map((block) => block.title);
    for (const width of [10, 30.5, 60, 200]) {
      for (const title of titles) expect(fitter.fit(title, width)).toBe(truncateToFit(title, Math.floor(width), measure));
    }
    const calls = fitter.measured();
    for (const title of titles) fitter.fit(title, 60.9);
    expect(fitter.measured()).toBe(calls);
  });

  it('stays within its limit', () => {
    let calls = 0;
    const fitter = createTextFitter((s) => (calls++, s.length), 4);
    for (let i = 0; i < 20; i++) fitter.fit(`title ${i}`, 100);
    expect(fitter.fit('title 3', 100)).toBe('title 3');
    expect(calls).toBeGreaterThanOrEqual(20);
  });
});

describe('zoomOnlyChange', () => {
  const fit = fitViewport(WIDTH, data.iterations);
  const plan = (viewport: Viewport, width = WIDTH) => planTimeline(data, viewport, width, 200);

  it('is true for a new zoom only, not for a pan, new data or a new size', () => {
    const base = plan(zoomAt(fit, 8, 600, WIDTH, data.iterations));
    expect(zoomOnlyChange(base, data, plan(zoomAt(fit, 12, 600, WIDTH, data.iterations)), data)).toBe(true);
    expect(zoomOnlyChange(base, data, plan(pan(base.viewport, 50, WIDTH, data.iterations)), data)).toBe(false);
    expect(zoomOnlyChange(base, data, plan(fit, 900), data)).toBe(false);
    expect(zoomOnlyChange(base, data, plan(fit), syntheticTimeline(10))).toBe(false);
  });
});
