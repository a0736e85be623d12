/**
 * Pure geometry of the fold timeline: the viewport (first iteration and pixels per iteration),
 * zoom and pan with clamping, cell runs merged to pixel resolution, visible block rectangles,
 * the retrieved-zone strip, hit testing and the layout plan the canvas and the DOM layer both
 * draw from.
 */
import type { KeyMoment, Level, TimelineBlock, TimelineData, TimelineRetrieval } from './types.ts';

/** What part of the run is on screen: `start` is a (fractional) iteration at x = 0. */
export interface Viewport {
  start: number;
  pxPerIteration: number;
}

/** A run of consecutive iterations drawn as one rectangle (inclusive range). */
export interface CellRun {
  from: number;
  to: number;
  level: Level;
}

/** A block's rectangle in CSS pixels, clipped to the visible width. */
export interface BlockRect {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  block: TimelineBlock;
}

/** A recalled block's rectangle on the retrieved strip, in CSS pixels (widened to RETRIEVED_MIN_PX). */
export interface RetrievedRect {
  /** The recalled block's id (one retrieval per block). */
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Where the recall happened, when it is on screen. Unit: CSS px. */
  sinceX: number | undefined;
  retrieval: TimelineRetrieval;
}

/** Closest allowed zoom-in: one iteration is at most this many pixels wide. */
export const MAX_PX_PER_ITERATION = 48;
/** Blocks narrower than this on screen are neither drawn nor given a DOM button. */
export const MIN_BLOCK_PX = 2;

/**
 * Recalled blocks are few and matter while they last: on screen they are never narrower than this,
 * so one stays visible (and clickable) at the whole-run zoom. Default 8. Unit: CSS px.
 */
export const RETRIEVED_MIN_PX = 8;
/** Overlapping recalls share the strip in at most this many lanes; more pile onto the last one. Default 3. */
export const RETRIEVED_MAX_LANES = 3;

/** Vertical layout of the canvas, in CSS pixels. */
export const LAYOUT = {
  momentsY: 0,
  momentsH: 12,
  bandY: 14,
  bandH: 26,
  retrievedY: 43,
  retrievedH: 12,
  rowsY: 58,
  rowH: 22,
  axisH: 16,
} as const;

const clamp = (value: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, value));

/** The zoom that shows the whole run (never more than the maximum zoom-in, unless the run is tiny). */
export function fitPx(width: number, total: number): number {
  if (total <= 0 || width <= 0) return 1;
  return width / total;
}

/** Clamp zoom to [fit, max] and start so the view never scrolls past either end. */
export function clampViewport(viewport: Viewport, width: number, total: number): Viewport {
  const minPx = fitPx(width, total);
  const maxPx = Math.max(minPx, MAX_PX_PER_ITERATION);
  const pxPerIteration = clamp(viewport.pxPerIteration, minPx, maxPx);
  const maxStart = Math.max(0, total - width / pxPerIteration);
  return { start: clamp(viewport.start, 0, maxStart), pxPerIteration };
}

/** The viewport showing the whole run. */
export function fitViewport(width: number, total: number): Viewport {
  return { start: 0, pxPerIteration: fitPx(width, total) };
}

/** Integer iterations at least partly on screen, inclusive; `to < from` when there are none. */
export function visibleRange(viewport: Viewport, width: number, total: number): { from: number; to: number } {
  if (total <= 0 || width <= 0) return { from: 0, to: -1 };
  const from = clamp(Math.floor(viewport.start), 0, total - 1);
  const to = clamp(Math.ceil(viewport.start + width / viewport.pxPerIteration) - 1, 0, total - 1);
  return { from, to };
}

/** Left edge of an iteration's cell, in CSS pixels. */
export function xOf(viewport: Viewport, iteration: number): number {
  return (iteration - viewport.start) * viewport.pxPerIteration;
}

/** The (fractional) iteration under x; `Math.floor` it for the cell index. */
export function iterationAt(viewport: Viewport, x: number): number {
  return viewport.start + x / viewport.pxPerIteration;
}

/** Multiply the zoom by `factor`, keeping the iteration under `anchorX` where it is, then clamp. */
export function zoomAt(viewport: Viewport, factor: number, anchorX: number, width: number, total: number): Viewport {
  const anchor = iterationAt(viewport, anchorX);
  const limited = clampViewport({ start: 0, pxPerIteration: viewport.pxPerIteration * factor }, width, total);
  return clampViewport({ start: anchor - anchorX / limited.pxPerIteration, pxPerIteration: limited.pxPerIteration }, width, total);
}

/** Move the view by `deltaPx` pixels (positive shows later iterations), then clamp. */
export function pan(viewport: Viewport, deltaPx: number, width: number, total: number): Viewport {
  return clampViewport({ start: viewport.start + deltaPx / viewport.pxPerIteration, pxPerIteration: viewport.pxPerIteration }, width, total);
}

function toLevel(value: number | undefined): Level {
  return Math.min(4, value ?? 4) as Level;
}

/**
 * Cells to draw for iterations from..to. At one pixel or more per iteration, one run per
 * iteration. Below that, iterations are bucketed by the screen pixel they fall in (buckets are
 * aligned to absolute iterations so panning doesn't shimmer), each bucket shows its fullest
 * level (an L0 iteration never vanishes), and equal neighbours merge: the output is at most
 * one run per pixel, so drawing costs O(visible pixels).
 */
export function cellRuns(levels: Uint8Array, from: number, to: number, pxPerIteration: number): CellRun[] {
  const runs: CellRun[] = [];
  const last = Math.min(to, levels.length - 1);
  if (last < from) return runs;
  if (pxPerIteration >= 1) {
    for (let i = Math.max(0, from); i <= last; i++) runs.push({ from: i, to: i, level: toLevel(levels[i]) });
    return runs;
  }
  const push = (start: number, end: number, level: Level) => {
    const previous = runs[runs.length - 1];
    if (previous && previous.level === level) previous.to = end;
    else runs.push({ from: start, to: end, level });
  };
  let bucketStart = Math.max(0, from);
  let bucket = Math.floor(bucketStart * pxPerIteration);
  let level = toLevel(levels[bucketStart]);
  for (let i = bucketStart + 1; i <= last; i++) {
    const b = Math.floor(i * pxPerIteration);
    const value = toLevel(levels[i]);
    if (b !== bucket) {
      push(bucketStart, i - 1, level);
      bucketStart = i;
      bucket = b;
      level = value;
    } else if (value < level) {
      level = value;
    }
  }
  push(bucketStart, last, level);
  return runs;
}

/**
 * Rectangles of the blocks at least MIN_BLOCK_PX wide on screen, clipped to [0, width], one
 * row per depth starting at `top`, sorted left to right (parents before their children) so
 * the DOM layer's Tab order follows the time axis. Rows below `maxY` are left out.
 */
export function blockRects(
  blocks: readonly TimelineBlock[],
  viewport: Viewport,
  rowHeight: number,
  width: number,
  top = 0,
  maxY = Number.POSITIVE_INFINITY,
): BlockRect[] {
  const rects: BlockRect[] = [];
  for (const block of blocks) {
    const left = xOf(viewport, block.from);
    const right = xOf(viewport, block.to + 1);
    const x = Math.max(0, left);
    const w = Math.min(width, right) - x;
    const y = top + block.depth * rowHeight;
    if (w < MIN_BLOCK_PX || y + rowHeight > maxY) continue;
    rects.push({ id: block.id, x, y, w, h: rowHeight, block });
  }
  rects.sort((a, b) => a.block.from - b.block.from || a.block.depth - b.block.depth);
  return rects;
}

/**
 * Rectangles of the recalled blocks on the strip at `top` (height `height`), left to right.
 * Each spans its block's iterations, widened to RETRIEVED_MIN_PX and kept inside [0, width];
 * recalls whose widened boxes overlap go on separate lanes (greedy, first free lane) that split
 * the strip's height for that group only. Retrievals wholly off screen are left out.
 */
export function retrievedRects(
  retrieved: readonly TimelineRetrieval[],
  viewport: Viewport,
  width: number,
  top: number,
  height: number,
): RetrievedRect[] {
  const boxes: { x: number; w: number; retrieval: TimelineRetrieval }[] = [];
  for (const retrieval of retrieved) {
    const left = xOf(viewport, retrieval.from);
    const right = xOf(viewport, retrieval.to + 1);
    if (right <= 0 || left >= width) continue;
    const clippedLeft = Math.max(0, left);
    const clippedRight = Math.min(width, right);
    const w = Math.min(width, Math.max(RETRIEVED_MIN_PX, clippedRight - clippedLeft));
    const x = Math.max(0, Math.min(clippedLeft - (w - (clippedRight - clippedLeft)) / 2, width - w));
    boxes.push({ x, w, retrieval });
  }
  boxes.sort((a, b) => a.x - b.x || a.retrieval.from - b.retrieval.from);
  const rects: RetrievedRect[] = [];
  // Clusters of boxes that overlap (directly or through each other): within one, greedy lanes.
  for (let first = 0; first < boxes.length; ) {
    const laneEnds: number[] = [];
    const lanes: number[] = [];
    let last = first;
    for (let right = -Infinity; last < boxes.length; last++) {
      const box = boxes[last]!;
      if (last > first && box.x >= right) break;
      let lane = laneEnds.findIndex((end) => end <= box.x);
      if (lane < 0) lane = Math.min(laneEnds.length, RETRIEVED_MAX_LANES - 1);
      laneEnds[lane] = Math.max(laneEnds[lane] ?? 0, box.x + box.w);
      lanes.push(lane);
      right = Math.max(right, box.x + box.w);
    }
    const h = height / laneEnds.length;
    for (let i = first; i < last; i++) {
      const { x, w, retrieval } = boxes[i]!;
      const since = xOf(viewport, retrieval.since + 0.5);
      rects.push({ id: retrieval.blockId, x, y: top + (lanes[i - first] ?? 0) * h, w, h, sinceX: since >= 0 && since <= width ? since : undefined, retrieval });
    }
    first = last;
  }
  return rects;
}

/** The rectangle under (x, y), if any. */
export function hitTest(rects: readonly { id: string; x: number; y: number; w: number; h: number }[], x: number, y: number): string | undefined {
  for (const rect of rects) {
    if (x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h) return rect.id;
  }
  return undefined;
}

/** Axis tick iterations: a 1–2–5 step leaving at least `minGapPx` between labels. */
export function ticks(viewport: Viewport, width: number, total: number, minGapPx = 80): number[] {
  const { from, to } = visibleRange(viewport, width, total);
  if (to < from) return [];
  const raw = minGapPx / viewport.pxPerIteration;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const out: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) out.push(t);
  return out;
}

/** The longest prefix of `text` (with an ellipsis) whose measured width fits; '' if nothing does. */
export function truncateToFit(text: string, maxWidth: number, measure: (s: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${text.slice(0, mid)}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo).trimEnd()}…`;
}

/** Everything one frame draws, computed once and shared by the canvas and the DOM layer. */
export interface TimelinePlan {
  viewport: Viewport;
  width: number;
  height: number;
  runs: CellRun[];
  rects: BlockRect[];
  /** Recalled blocks on the strip between the level band and the block rows. */
  retrieved: RetrievedRect[];
  moments: { x: number; moment: KeyMoment }[];
  ticks: number[];
  cursorX: number | undefined;
}

/** Canvas height that fits every depth row (used when no height is given). */
export function naturalHeight(blocks: readonly TimelineBlock[]): number {
  const rows = blocks.reduce((max, block) => Math.max(max, block.depth + 1), 0);
  return LAYOUT.rowsY + rows * LAYOUT.rowH + LAYOUT.axisH + 4;
}

export function planTimeline(
  data: TimelineData,
  viewport: Viewport,
  width: number,
  height: number,
  currentIteration?: number,
): TimelinePlan {
  const total = data.iterations;
  const { from, to } = visibleRange(viewport, width, total);
  const moments = data.moments
    .filter((moment) => moment.iteration >= from && moment.iteration <= to)
    .map((moment) => ({ x: xOf(viewport, moment.iteration + 0.5), moment }));
  const cursorX =
    currentIteration !== undefined && currentIteration >= from && currentIteration <= to
      ? xOf(viewport, currentIteration + 0.5)
      : undefined;
  return {
    viewport,
    width,
    height,
    runs: cellRuns(data.levels, from, to, viewport.pxPerIteration),
    rects: blockRects(data.blocks, viewport, LAYOUT.rowH, width, LAYOUT.rowsY, height - LAYOUT.axisH),
    retrieved: retrievedRects(data.retrieved, viewport, width, LAYOUT.retrievedY, LAYOUT.retrievedH),
    moments,
    ticks: ticks(viewport, width, total),
    cursorX,
  };
}
