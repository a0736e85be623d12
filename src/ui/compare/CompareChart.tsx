/**
 * Context tokens per call, one uPlot series per configuration, overlaid, with the window as a
 * dashed line and every compaction drawn on its series (a drop from the tokens before to the
 * tokens after, a diamond where the compacted call starts). Click a diamond to open that
 * compaction, anywhere else to see the context of the nearest curve's call; drag to zoom,
 * double-click to reset. Loaded on its own (uPlot is a chunk of its own).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ReplayResult } from '../../core/replay/types.ts';
import { colorOf, SERIES_DASH } from './model.ts';

export interface ChartSelection {
  config: number;
  call?: number;
  compaction?: number;
}

export interface CompareChartProps {
  results: readonly ReplayResult[];
  contextWindow: number;
  counterLabel: string;
  selection: ChartSelection | undefined;
  onPickCall: (config: number, call: number) => void;
  onPickCompaction: (config: number, compaction: number) => void;
}

const HEIGHT = 320;
/** How close (CSS px) a click must be to a compaction diamond to open it. */
const HIT_RADIUS = 9;

const compact = (n: number) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

export default function CompareChart({ results, contextWindow, counterLabel, selection, onPickCall, onPickCompaction }: CompareChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const selected = useRef(selection);
  const handlers = useRef({ onPickCall, onPickCompaction });

  useEffect(() => {
    handlers.current = { onPickCall, onPickCompaction };
  }, [onPickCall, onPickCompaction]);

  useEffect(() => {
    selected.current = selection;
    plot.current?.redraw(false);
  }, [selection]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const length = Math.max(1, ...results.map((result) => result.calls.length));
    const xs = Array.from({ length }, (_, i) => i + 1);
    const ys = results.map((result) => {
      const column: Array<number | null> = new Array<number | null>(length).fill(null);
      for (const call of result.calls) column[call.call] = call.contextTokens;
      return column;
    });
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: HEIGHT,
      scales: {
        x: { time: false },
        y: { range: (_u, _min, max) => [0, Math.max(max ?? 0, contextWindow) * 1.08] },
      },
      axes: [
        { label: 'call', stroke: '#475569' },
        { label: `context tokens (${counterLabel})`, stroke: '#475569', size: 56, values: (_u, splits) => splits.map((v) => compact(v)) },
      ],
      series: [
        { label: 'call', value: (_u, v) => (v == null ? '—' : `#${v}`) },
        ...results.map((result, i): uPlot.Series => ({
          label: result.error ? `${result.label} (failed)` : result.label,
          stroke: colorOf(i),
          width: 1.5,
          dash: SERIES_DASH[i % SERIES_DASH.length] ?? [],
          points: { show: false },
          value: (_u, v) => (v == null ? '—' : Math.round(v).toLocaleString('en-US')),
        })),
      ],
      cursor: { drag: { x: true, y: false, setScale: true } },
      hooks: { draw: [(u) => drawOverlay(u, results, contextWindow, selected.current)] },
    };
    const chart = new uPlot(options, [xs, ...ys], element);
    plot.current = chart;

    const onClick = (event: MouseEvent) => {
      // From the event, not uPlot's cursor: the cursor position is updated on the next frame.
      const rect = chart.over.getBoundingClientRect();
      const left = event.clientX - rect.left;
      const top = event.clientY - rect.top;
      if (left < 0 || top < 0 || left > rect.width || top > rect.height) return;
      const hit = nearestCompaction(chart, results, left, top);
      if (hit) {
        handlers.current.onPickCompaction(hit.config, hit.compaction);
        return;
      }
      const idx = chart.posToIdx(left);
      let best: { config: number; distance: number } | undefined;
      results.forEach((_, i) => {
        if (chart.series[i + 1]?.show === false) return;
        const value = ys[i]?.[idx];
        if (value == null) return;
        const distance = Math.abs(chart.valToPos(value, 'y') - top);
        if (!best || distance < best.distance) best = { config: i, distance };
      });
      if (best) handlers.current.onPickCall(best.config, idx);
    };
    chart.over.addEventListener('click', onClick);
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(320, element.clientWidth), height: HEIGHT }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.over.removeEventListener('click', onClick);
      chart.destroy();
      plot.current = null;
    };
  }, [results, contextWindow, counterLabel]);

  return (
    <div
      ref={host}
      className="compare-chart"
      data-testid="compare.chart"
      data-series={results.length}
      role="img"
      aria-label={`Context tokens per call for ${results.length} configuration${results.length === 1 ? '' : 's'}, window ${contextWindow.toLocaleString('en-US')} tokens. The compactions are listed below the chart.`}
    />
  );
}

function drawOverlay(u: uPlot, results: readonly ReplayResult[], contextWindow: number, selection: ChartSelection | undefined): void {
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
  ctx.fillText(`window ${contextWindow.toLocaleString('en-US')}`, left + width - 4 * px, wy - 4 * px);

  results.forEach((result, i) => {
    if (u.series[i + 1]?.show === false) return;
    // uPlot turns a series' stroke into a function once built: take the colour from the palette.
    const color = colorOf(i);
    // A strategy that compacts at every call gets small diamonds, so its curve stays readable.
    const radius = Math.max(2 * px, Math.min(5 * px, width / Math.max(1, result.compactions.length) / 3));
    result.compactions.forEach((compaction, c) => {
      const after = result.calls[compaction.call]?.contextTokens ?? compaction.tokensAfter;
      const x = u.valToPos(compaction.call + 1, 'x', true);
      const yBefore = u.valToPos(compaction.tokensBefore, 'y', true);
      const yAfter = u.valToPos(after, 'y', true);
      ctx.strokeStyle = color;
      ctx.lineWidth = px;
      ctx.beginPath();
      ctx.moveTo(x, yBefore);
      ctx.lineTo(x, yAfter);
      ctx.stroke();
      const picked = selection?.config === i && selection.compaction === c;
      diamond(ctx, x, yAfter, picked ? 7 * px : radius, color, picked);
    });
    if (selection?.config === i && selection.call !== undefined) {
      const value = result.calls[selection.call]?.contextTokens;
      if (value !== undefined) {
        ctx.strokeStyle = color;
        ctx.lineWidth = 2 * px;
        ctx.beginPath();
        ctx.arc(u.valToPos(selection.call + 1, 'x', true), u.valToPos(value, 'y', true), 6 * px, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
  });
  ctx.restore();
}

function diamond(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, color: string, picked: boolean): void {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
  ctx.fillStyle = picked ? '#0f172a' : color;
  ctx.fill();
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = uPlot.pxRatio;
  ctx.stroke();
}

function nearestCompaction(u: uPlot, results: readonly ReplayResult[], left: number, top: number): { config: number; compaction: number } | undefined {
  let best: { config: number; compaction: number; distance: number } | undefined;
  results.forEach((result, i) => {
    if (u.series[i + 1]?.show === false) return;
    result.compactions.forEach((compaction, c) => {
      const after = result.calls[compaction.call]?.contextTokens ?? compaction.tokensAfter;
      const distance = Math.hypot(u.valToPos(compaction.call + 1, 'x') - left, u.valToPos(after, 'y') - top);
      if (distance <= HIT_RADIUS && (!best || distance < best.distance)) best = { config: i, compaction: c, distance };
    });
  });
  return best && { config: best.config, compaction: best.compaction };
}
