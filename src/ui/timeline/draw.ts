/**
 * Paints one TimelinePlan on a 2D canvas: level band, the retrieved-zone strip, block spans with
 * truncated titles, key moments, the replay cursor and the axis. Colours come from timeline.css custom properties.
 * Everything of one colour is painted together (a frame at 100k iterations has ~1,000 band runs
 * and hundreds of blocks), block borders are one path, and titles are truncated through a cache.
 */
import { LAYOUT, xOf, type TimelinePlan } from './geometry.ts';
import { createTextFitter, type TextFitter } from './text-fit.ts';
import type { KeyMoment, Level } from './types.ts';

export interface TimelineColors {
  levels: [string, string, string, string, string];
  levelText: [string, string, string, string, string];
  moments: Record<KeyMoment['kind'], string>;
  cursor: string;
  axis: string;
  blockBorder: string;
  /** Recalled blocks: outline, hatching and "R" (the fill is this colour, faint). */
  retrieved: string;
}

/** The palette timeline.css sets (the canvas's colours where a property is missing). */
export const FALLBACK: TimelineColors = {
  levels: ['#2e1a5e', '#2f6f9f', '#3fae8f', '#c7e36b', '#eceef1'],
  levelText: ['#ffffff', '#ffffff', '#0b1f1a', '#1f2937', '#374151'],
  moments: { error: '#b91c1c', 'first-success': '#15803d', 'state-change': '#2563eb', bookmark: '#b45309' },
  cursor: '#2563eb',
  axis: '#64748b',
  blockBorder: '#ffffff',
  retrieved: '#7c3aed',
};

/** Reads the palette from CSS custom properties on `element` (falls back to the defaults). */
export function readColors(element: Element): TimelineColors {
  const style = getComputedStyle(element);
  const get = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const five = (prefix: string, fallback: readonly string[]) =>
    [0, 1, 2, 3, 4].map((i) => get(`${prefix}${i}`, fallback[i] ?? '#999')) as TimelineColors['levels'];
  return {
    levels: five('--tl-l', FALLBACK.levels),
    levelText: five('--tl-text-l', FALLBACK.levelText),
    moments: {
      error: get('--tl-moment-error', FALLBACK.moments.error),
      'first-success': get('--tl-moment-first-success', FALLBACK.moments['first-success']),
      'state-change': get('--tl-moment-state-change', FALLBACK.moments['state-change']),
      bookmark: get('--tl-moment-bookmark', FALLBACK.moments.bookmark),
    },
    cursor: get('--tl-cursor', FALLBACK.cursor),
    axis: get('--tl-axis', FALLBACK.axis),
    blockBorder: get('--tl-block-border', FALLBACK.blockBorder),
    retrieved: get('--tl-retrieved', FALLBACK.retrieved),
  };
}

const LEVELS: readonly Level[] = [0, 1, 2, 3, 4];
const TITLE_FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
const AXIS_FONT = '11px system-ui, -apple-system, "Segoe UI", sans-serif';
const RETRIEVED_FONT = 'bold 10px system-ui, -apple-system, "Segoe UI", sans-serif';
/** Spacing of the retrieved strip's hatching. Unit: CSS px. */
const HATCH_PX = 4;
/** Title truncation caches, one per canvas context (they measure with its TITLE_FONT). */
const fitters = new WeakMap<CanvasRenderingContext2D, TextFitter>();

/** Draws the plan; the context must already be scaled to CSS pixels. */
export function drawTimeline(ctx: CanvasRenderingContext2D, plan: TimelinePlan, colors: TimelineColors): void {
  const { viewport, width, height } = plan;
  ctx.clearRect(0, 0, width, height);
  drawBand(ctx, plan, colors);
  if (plan.retrieved.length > 0) drawRetrieved(ctx, plan, colors);
  drawBlocks(ctx, plan, colors);
  drawMoments(ctx, plan, colors);

  // Axis: ticks on cell boundaries, labelled with the number of iterations before them.
  ctx.fillStyle = colors.axis;
  ctx.font = AXIS_FONT;
  ctx.textBaseline = 'alphabetic';
  const axisY = height - 4;
  for (const tick of plan.ticks) {
    const x = xOf(viewport, tick);
    ctx.fillRect(Math.round(x), height - LAYOUT.axisH, 1, 4);
    ctx.fillText(tick.toLocaleString('en-US'), Math.min(x + 3, width - 48), axisY);
  }

  // Replay cursor over everything.
  if (plan.cursorX !== undefined) {
    ctx.fillStyle = colors.cursor;
    ctx.fillRect(Math.round(plan.cursorX) - 1, 0, 2, height - LAYOUT.axisH);
  }
}

/**
 * Level band: one rectangle per run, snapped to whole pixels, one colour at a time; runs of at
 * least 4 px get a hairline gap so cells read as cells.
 */
function drawBand(ctx: CanvasRenderingContext2D, plan: TimelinePlan, colors: TimelineColors): void {
  const { viewport, width } = plan;
  const gap = viewport.pxPerIteration >= 4 ? 1 : 0;
  for (const level of LEVELS) {
    ctx.fillStyle = colors.levels[level];
    for (const run of plan.runs) {
      if (run.level !== level) continue;
      const x0 = Math.max(0, Math.round(xOf(viewport, run.from)));
      const x1 = Math.min(width, Math.round(xOf(viewport, run.to + 1)));
      ctx.fillRect(x0, LAYOUT.bandY, Math.max(1, x1 - x0 - gap), LAYOUT.bandH);
    }
  }
}

/**
 * Recalled blocks on their strip: a faint fill, diagonal hatching (one clipped path for all of
 * them), an outline and "R" where it fits; a dashed lead from each to the iteration that recalled
 * it ends in a tick. A handful of rects at most: the retrieved zone has a small token budget.
 */
function drawRetrieved(ctx: CanvasRenderingContext2D, plan: TimelinePlan, colors: TimelineColors): void {
  const rects = plan.retrieved;
  ctx.save();
  ctx.fillStyle = colors.retrieved;
  ctx.strokeStyle = colors.retrieved;
  ctx.globalAlpha = 0.15;
  for (const r of rects) ctx.fillRect(r.x, r.y, r.w, r.h);
  ctx.globalAlpha = 0.6;
  ctx.beginPath();
  for (const r of rects) ctx.rect(r.x, r.y, r.w, r.h);
  ctx.clip();
  ctx.beginPath();
  for (const r of rects) {
    // Lines on absolute x, so the hatching moves with the blocks instead of crawling while panning.
    const first = Math.floor((r.x - r.h) / HATCH_PX) * HATCH_PX;
    for (let x = first; x < r.x + r.w; x += HATCH_PX) {
      ctx.moveTo(x, r.y + r.h);
      ctx.lineTo(x + r.h, r.y);
    }
  }
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();

  ctx.save();
  ctx.strokeStyle = colors.retrieved;
  ctx.fillStyle = colors.retrieved;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const r of rects) ctx.rect(r.x + 0.5, r.y + 0.5, Math.max(0, r.w - 1), Math.max(0, r.h - 1));
  ctx.stroke();
  ctx.setLineDash([2, 2]);
  ctx.beginPath();
  for (const r of rects) {
    if (r.sinceX === undefined || r.sinceX <= r.x + r.w) continue;
    const y = Math.round(r.y + r.h / 2) + 0.5;
    ctx.moveTo(r.x + r.w, y);
    ctx.lineTo(r.sinceX, y);
  }
  ctx.stroke();
  for (const r of rects) if (r.sinceX !== undefined) ctx.fillRect(Math.round(r.sinceX) - 1, r.y, 2, r.h);
  // "R" on a solid tag at the left end, where the span is wide and tall enough for it.
  const tagged = rects.filter((r) => r.w >= 16 && r.h >= 10);
  for (const r of tagged) ctx.fillRect(r.x + 1, r.y + 1, 11, r.h - 2);
  ctx.fillStyle = colors.blockBorder;
  ctx.font = RETRIEVED_FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  for (const r of tagged) ctx.fillText('R', r.x + 6.5, r.y + r.h / 2 + 0.5);
  ctx.restore();
}

/** Blocks on stacked rows by depth (rects never overlap), with titles truncated to fit. */
function drawBlocks(ctx: CanvasRenderingContext2D, plan: TimelinePlan, colors: TimelineColors): void {
  for (const level of LEVELS) {
    ctx.fillStyle = colors.levels[level];
    for (const rect of plan.rects) if (rect.block.level === level) ctx.fillRect(rect.x, rect.y + 1, rect.w, rect.h - 2);
  }
  ctx.beginPath();
  for (const rect of plan.rects) ctx.rect(rect.x + 0.5, rect.y + 1.5, Math.max(0, rect.w - 1), rect.h - 3);
  ctx.strokeStyle = colors.blockBorder;
  ctx.lineWidth = 1;
  ctx.stroke();

  ctx.font = TITLE_FONT;
  ctx.textBaseline = 'middle';
  let fitter = fitters.get(ctx);
  if (!fitter) {
    fitter = createTextFitter((s) => ctx.measureText(s).width);
    fitters.set(ctx, fitter);
  }
  for (const level of LEVELS) {
    ctx.fillStyle = colors.levelText[level];
    for (const rect of plan.rects) {
      if (rect.block.level !== level || rect.w <= 16) continue;
      const title = fitter.fit(rect.block.title, rect.w - 8);
      if (title) ctx.fillText(title, rect.x + 4, rect.y + rect.h / 2);
    }
  }
}

/** Key moments: a small triangle above the band and a faint line through it, one colour at a time. */
function drawMoments(ctx: CanvasRenderingContext2D, plan: TimelinePlan, colors: TimelineColors): void {
  for (const kind of Object.keys(colors.moments) as KeyMoment['kind'][]) {
    const xs = plan.moments.filter(({ moment }) => moment.kind === kind).map(({ x }) => x);
    if (xs.length === 0) continue;
    ctx.fillStyle = colors.moments[kind];
    ctx.beginPath();
    for (const x of xs) {
      ctx.moveTo(x - 5, LAYOUT.momentsY + 2);
      ctx.lineTo(x + 5, LAYOUT.momentsY + 2);
      ctx.lineTo(x, LAYOUT.momentsY + LAYOUT.momentsH);
      ctx.closePath();
    }
    ctx.fill();
    ctx.globalAlpha = 0.6;
    for (const x of xs) ctx.fillRect(Math.round(x), LAYOUT.bandY, 1, LAYOUT.bandH);
    ctx.globalAlpha = 1;
  }
}
