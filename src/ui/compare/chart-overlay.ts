/**
 * What the compare chart draws on top of uPlot's curves, and what a click on it hits: the window
 * line and every compaction (a drop from the tokens before to the tokens after, a diamond where
 * the compacted call starts) on a layer of their own, and the picked compaction or call on
 * another above it.
 */
import uPlot from 'uplot';
import { contextTokensAt, type ReplayResultView } from '../../worker/compare-view.ts';
import { afterNextFrame } from '../common/after-next-frame.ts';
import { formatNumber } from '../common/format.ts';
import { colorOf } from './model.ts';

/** What is picked on the chart: a compaction of a configuration, or one of its calls. */
export interface ChartSelection {
  config: number;
  call?: number;
  compaction?: number;
}

/** How close (CSS px) a click must be to a compaction diamond to open it. */
const HIT_RADIUS = 9;

/**
 * Compactions drawn per task at most: a configuration that compacts at nearly every call (thousands
 * of diamonds) is drawn over a few frames instead of in one long task with the curves.
 */
export const MARKS_PER_TASK = 500;

/**
 * The window line and every compaction, on a canvas of their own under the selection layer. The
 * layer is cleared and the window line drawn at once; the compactions follow in tasks of their own
 * (at most MARKS_PER_TASK each, after the next frame), so the chart's draw stays short. Called
 * after every chart draw (data, zoom, resize, a series shown or hidden); returns a cancel function
 * for the steps not yet run.
 */
export function drawOverlay(u: uPlot, results: readonly ReplayResultView[], contextWindow: number): () => void {
  const px = uPlot.pxRatio;
  const ctx = plotLayer(u, 'overlay-layer').getContext('2d');
  if (!ctx) return () => undefined;
  const { width, height } = u.bbox;
  ctx.clearRect(0, 0, width, height);
  const wy = u.valToPos(contextWindow, 'y') * px;
  ctx.strokeStyle = '#dc2626';
  ctx.lineWidth = px;
  ctx.setLineDash([5 * px, 4 * px]);
  ctx.beginPath();
  ctx.moveTo(0, wy);
  ctx.lineTo(width, wy);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = '#dc2626';
  ctx.font = `${11 * px}px system-ui, sans-serif`;
  ctx.textAlign = 'right';
  ctx.fillText(`window ${formatNumber(contextWindow)}`, width - 4 * px, wy - 4 * px);

  const steps: Array<() => void> = [];
  results.forEach((result, i) => {
    if (u.series[i + 1]?.show === false) return;
    // uPlot turns a series' stroke into a function once built: take the colour from the palette.
    const color = colorOf(i);
    // A strategy that compacts at every call gets small diamonds, so its curve stays readable.
    const radius = Math.max(2 * px, Math.min(5 * px, width / Math.max(1, result.compactions.length) / 3));
    let sprite: HTMLCanvasElement | undefined;
    for (let from = 0; from < result.compactions.length; from += MARKS_PER_TASK) {
      steps.push(() => {
        sprite ??= diamondSprite(radius, color, px);
        drawMarks(ctx, u, result, from, Math.min(result.compactions.length, from + MARKS_PER_TASK), color, sprite);
      });
    }
  });
  let cancel: () => void = () => undefined;
  const run = (k: number) => {
    const step = steps[k];
    if (!step) return;
    cancel = afterNextFrame(() => {
      step();
      run(k + 1);
    });
  };
  run(0);
  return () => cancel();
}

/**
 * Compactions `from` to `to` (not included) of one configuration: one path for their drops, and
 * one pre-drawn diamond stamped per compaction (one canvas call each, not two strokes and a fill).
 */
function drawMarks(ctx: CanvasRenderingContext2D, u: uPlot, result: ReplayResultView, from: number, to: number, color: string, sprite: HTMLCanvasElement): void {
  const px = uPlot.pxRatio;
  const drops = new Path2D();
  const points: number[] = [];
  for (let c = from; c < to; c++) {
    const compaction = result.compactions[c]!;
    const after = contextTokensAt(result.calls, compaction.call) ?? compaction.tokensAfter;
    const x = u.valToPos(compaction.call + 1, 'x') * px;
    const yAfter = u.valToPos(after, 'y') * px;
    drops.moveTo(x, u.valToPos(compaction.tokensBefore, 'y') * px);
    drops.lineTo(x, yAfter);
    points.push(x, yAfter);
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = px;
  ctx.stroke(drops);
  const half = sprite.width / 2;
  for (let k = 0; k < points.length; k += 2) ctx.drawImage(sprite, points[k]! - half, points[k + 1]! - half);
}

/**
 * A canvas over the plot area (in `u.over`, which moves and sizes with it), sized to uPlot's own
 * numbers: reading the element's size would force a layout. Layers stack in the order first asked.
 */
function plotLayer(u: uPlot, className: string): HTMLCanvasElement {
  const px = uPlot.pxRatio;
  let layer = u.over.querySelector<HTMLCanvasElement>(`canvas.${className}`);
  if (!layer) {
    layer = document.createElement('canvas');
    layer.className = className;
    layer.setAttribute('aria-hidden', 'true');
    layer.style.cssText = 'position:absolute;left:0;top:0;pointer-events:none';
    u.over.appendChild(layer);
  }
  const width = Math.round(u.bbox.width / px);
  const height = Math.round(u.bbox.height / px);
  if (layer.width !== Math.round(width * px) || layer.height !== Math.round(height * px)) {
    layer.width = Math.round(width * px);
    layer.height = Math.round(height * px);
    layer.style.width = `${width}px`;
    layer.style.height = `${height}px`;
  }
  return layer;
}

/**
 * The picked compaction or call, on a canvas of its own over the plot: a click changes only this
 * layer. Drawn again after every chart draw too (zoom, resize), so it follows the scales.
 */
export function drawSelection(u: uPlot, results: readonly ReplayResultView[], selection: ChartSelection | undefined): void {
  const px = uPlot.pxRatio;
  // Asked for first, the overlay stays under the selection.
  plotLayer(u, 'overlay-layer');
  const layer = plotLayer(u, 'selection-layer');
  const ctx = layer.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, layer.width, layer.height);
  const result = selection ? results[selection.config] : undefined;
  if (!selection || !result || u.series[selection.config + 1]?.show === false) return;
  const color = colorOf(selection.config);
  const compaction = selection.compaction !== undefined ? result.compactions[selection.compaction] : undefined;
  if (compaction) {
    const after = contextTokensAt(result.calls, compaction.call) ?? compaction.tokensAfter;
    const path = new Path2D();
    diamondPath(path, u.valToPos(compaction.call + 1, 'x') * px, u.valToPos(after, 'y') * px, 7 * px);
    ctx.fillStyle = '#0f172a';
    ctx.fill(path);
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = px;
    ctx.stroke(path);
  }
  const value = selection.call !== undefined ? contextTokensAt(result.calls, selection.call) : undefined;
  if (selection.call !== undefined && value !== undefined) {
    ctx.strokeStyle = color;
    ctx.lineWidth = 2 * px;
    ctx.beginPath();
    ctx.arc(u.valToPos(selection.call + 1, 'x') * px, u.valToPos(value, 'y') * px, 6 * px, 0, Math.PI * 2);
    ctx.stroke();
  }
}

/** A diamond of radius `r` (canvas px) filled with `color` and outlined in white, on a small canvas of its own. */
function diamondSprite(r: number, color: string, px: number): HTMLCanvasElement {
  const sprite = document.createElement('canvas');
  const size = Math.ceil(2 * r + 2 * px);
  sprite.width = size;
  sprite.height = size;
  const ctx = sprite.getContext('2d');
  if (!ctx) return sprite;
  const path = new Path2D();
  diamondPath(path, size / 2, size / 2, r);
  ctx.fillStyle = color;
  ctx.fill(path);
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = px;
  ctx.stroke(path);
  return sprite;
}

function diamondPath(path: Path2D, x: number, y: number, r: number): void {
  path.moveTo(x, y - r);
  path.lineTo(x + r, y);
  path.lineTo(x, y + r);
  path.lineTo(x - r, y);
  path.closePath();
}

export function nearestCompaction(u: uPlot, results: readonly ReplayResultView[], left: number, top: number): { config: number; compaction: number } | undefined {
  let best: { config: number; compaction: number; distance: number } | undefined;
  results.forEach((result, i) => {
    if (u.series[i + 1]?.show === false) return;
    result.compactions.forEach((compaction, c) => {
      const after = contextTokensAt(result.calls, compaction.call) ?? compaction.tokensAfter;
      const distance = Math.hypot(u.valToPos(compaction.call + 1, 'x') - left, u.valToPos(after, 'y') - top);
      if (distance <= HIT_RADIUS && (!best || distance < best.distance)) best = { config: i, compaction: c, distance };
    });
  });
  return best && { config: best.config, compaction: best.compaction };
}
