/**
 * What the compare chart draws on top of uPlot's curves, and what a click on it hits: the window
 * line and every compaction (a drop from the tokens before to the tokens after, a diamond where
 * the compacted call starts), and the picked compaction or call on a layer of its own.
 */
import uPlot from 'uplot';
import { contextTokensAt } from '../../store/view/comparison.ts';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
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

export function drawOverlay(u: uPlot, results: readonly ReplayResultView[], contextWindow: number): void {
  const ctx = u.ctx;
  const px = uPlot.pxRatio;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  const wy = u.valToPos(contextWindow, 'y', true);
  ctx.strokeStyle = '#dc2626';
  ctx.lineWidth = px;
  ctx.setLineDash([5 * px, 4 * px]);
  ctx.beginPath();
  ctx.moveTo(left, wy);
  ctx.lineTo(left + width, wy);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = '#dc2626';
  ctx.font = `${11 * px}px system-ui, sans-serif`;
  ctx.textAlign = 'right';
  ctx.fillText(`window ${formatNumber(contextWindow)}`, left + width - 4 * px, wy - 4 * px);

  results.forEach((result, i) => {
    if (u.series[i + 1]?.show === false) return;
    // uPlot turns a series' stroke into a function once built: take the colour from the palette.
    const color = colorOf(i);
    // A strategy that compacts at every call gets small diamonds, so its curve stays readable.
    const radius = Math.max(2 * px, Math.min(5 * px, width / Math.max(1, result.compactions.length) / 3));
    // One path for every drop of a configuration, and one pre-drawn diamond stamped per
    // compaction: thousands of compactions cost one canvas call each, not two strokes and a fill.
    const drops = new Path2D();
    const points: number[] = [];
    result.compactions.forEach((compaction) => {
      const after = contextTokensAt(result.calls, compaction.call) ?? compaction.tokensAfter;
      const x = u.valToPos(compaction.call + 1, 'x', true);
      const yAfter = u.valToPos(after, 'y', true);
      drops.moveTo(x, u.valToPos(compaction.tokensBefore, 'y', true));
      drops.lineTo(x, yAfter);
      points.push(x, yAfter);
    });
    ctx.strokeStyle = color;
    ctx.lineWidth = px;
    ctx.stroke(drops);
    const sprite = diamondSprite(radius, color, px);
    const half = sprite.width / 2;
    for (let k = 0; k < points.length; k += 2) ctx.drawImage(sprite, points[k]! - half, points[k + 1]! - half);
  });
  ctx.restore();
}

/**
 * The picked compaction or call, on a canvas of its own over the plot: a click changes only this
 * layer. Drawn again after every chart draw too (zoom, resize), so it follows the scales.
 */
export function drawSelection(u: uPlot, results: readonly ReplayResultView[], selection: ChartSelection | undefined): void {
  const px = uPlot.pxRatio;
  let layer = u.over.querySelector<HTMLCanvasElement>('canvas.selection-layer');
  if (!layer) {
    layer = document.createElement('canvas');
    layer.className = 'selection-layer';
    layer.setAttribute('aria-hidden', 'true');
    layer.style.cssText = 'position:absolute;left:0;top:0;pointer-events:none';
    u.over.appendChild(layer);
  }
  // The plot area's size from uPlot's own numbers: reading the element's would force a layout.
  const width = Math.round(u.bbox.width / px);
  const height = Math.round(u.bbox.height / px);
  if (layer.width !== Math.round(width * px) || layer.height !== Math.round(height * px)) {
    layer.width = Math.round(width * px);
    layer.height = Math.round(height * px);
    layer.style.width = `${width}px`;
    layer.style.height = `${height}px`;
  }
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
