/**
 * Paints one TimelinePlan on a 2D canvas: level band, block spans with truncated titles, key
 * moments, the replay cursor and the axis. Colours come from timeline.css custom properties.
 */
import { LAYOUT, truncateToFit, xOf, type TimelinePlan } from './geometry.ts';
import type { KeyMoment } from './types.ts';

export interface TimelineColors {
  levels: [string, string, string, string, string];
  levelText: [string, string, string, string, string];
  moments: Record<KeyMoment['kind'], string>;
  cursor: string;
  axis: string;
  blockBorder: string;
}

const FALLBACK: TimelineColors = {
  levels: ['#1f5f3f', '#4a8a64', '#8db99a', '#c8dccd', '#e3e6e8'],
  levelText: ['#ffffff', '#ffffff', '#10241a', '#1f2937', '#374151'],
  moments: { error: '#b91c1c', 'first-success': '#15803d', 'state-change': '#2563eb', bookmark: '#b45309' },
  cursor: '#2563eb',
  axis: '#64748b',
  blockBorder: '#ffffff',
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
  };
}

/** Draws the plan; the context must already be scaled to CSS pixels. */
export function drawTimeline(ctx: CanvasRenderingContext2D, plan: TimelinePlan, colors: TimelineColors): void {
  const { viewport, width, height } = plan;
  ctx.clearRect(0, 0, width, height);

  // Level band: one rectangle per run; runs of at least 4 px get a hairline gap so cells read as cells.
  const gap = viewport.pxPerIteration >= 4 ? 1 : 0;
  for (const run of plan.runs) {
    const x0 = Math.max(0, xOf(viewport, run.from));
    const x1 = Math.min(width, xOf(viewport, run.to + 1));
    ctx.fillStyle = colors.levels[run.level];
    ctx.fillRect(x0, LAYOUT.bandY, Math.max(1, x1 - x0 - gap), LAYOUT.bandH);
  }

  // Blocks on stacked rows by depth, with titles truncated to fit.
  ctx.font = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
  ctx.textBaseline = 'middle';
  const measure = (s: string) => ctx.measureText(s).width;
  for (const rect of plan.rects) {
    const { level } = rect.block;
    ctx.fillStyle = colors.levels[level];
    ctx.fillRect(rect.x, rect.y + 1, rect.w, rect.h - 2);
    ctx.strokeStyle = colors.blockBorder;
    ctx.lineWidth = 1;
    ctx.strokeRect(rect.x + 0.5, rect.y + 1.5, Math.max(0, rect.w - 1), rect.h - 3);
    if (rect.w > 16) {
      const title = truncateToFit(rect.block.title, rect.w - 8, measure);
      if (title) {
        ctx.fillStyle = colors.levelText[level];
        ctx.fillText(title, rect.x + 4, rect.y + rect.h / 2);
      }
    }
  }

  // Key moments: a small triangle above the band and a faint line through it.
  for (const { x, moment } of plan.moments) {
    const color = colors.moments[moment.kind];
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.moveTo(x - 5, LAYOUT.momentsY + 2);
    ctx.lineTo(x + 5, LAYOUT.momentsY + 2);
    ctx.lineTo(x, LAYOUT.momentsY + LAYOUT.momentsH);
    ctx.closePath();
    ctx.fill();
    ctx.globalAlpha = 0.6;
    ctx.fillRect(Math.round(x), LAYOUT.bandY, 1, LAYOUT.bandH);
    ctx.globalAlpha = 1;
  }

  // Axis: ticks on cell boundaries, labelled with the number of iterations before them.
  ctx.fillStyle = colors.axis;
  ctx.font = '11px system-ui, -apple-system, "Segoe UI", sans-serif';
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
