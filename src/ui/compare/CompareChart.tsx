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
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { drawOverlay, drawSelection, nearestCompaction, type ChartSelection } from './chart-overlay.ts';
import { colorOf, SERIES_DASH } from './model.ts';
import { afterNextFrame } from '../common/after-next-frame.ts';
import type { RecordedRun } from '../../core/replay/recorded-run.ts';
import { drawRecordedCompactions, recordedColumn, recordedSeries } from './recorded-series.ts';
import { formatNumber } from '../common/format.ts';
import type { UnseenPrefix } from '../../core/replay/recorded-usage.ts';
import { drawPrefixBand, prefixBandLabel } from './prefix-band.ts';

export type { ChartSelection } from './chart-overlay.ts';

export interface CompareChartProps {
  results: readonly ReplayResultView[];
  /** The agent's own run, drawn as one more curve that is not a configuration (absent: none recorded). */
  recorded?: RecordedRun | null | undefined;
  contextWindow: number;
  /** The unseen prefix every curve includes, drawn as its own band under them (absent or 0: none). */
  unseenPrefix?: UnseenPrefix | undefined;
  counterLabel: string;
  selection: ChartSelection | undefined;
  onPickCall: (config: number, call: number) => void;
  onPickCompaction: (config: number, compaction: number) => void;
}

const HEIGHT = 320;

const compact = (n: number) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

export default function CompareChart({ results, recorded, contextWindow, unseenPrefix, counterLabel, selection, onPickCall, onPickCompaction }: CompareChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const selected = useRef(selection);
  const handlers = useRef({ onPickCall, onPickCompaction });

  useEffect(() => {
    handlers.current = { onPickCall, onPickCompaction };
  }, [onPickCall, onPickCompaction]);

  useEffect(() => {
    selected.current = selection;
    // Only the selection layer is drawn again: redrawing thousands of points per click would hold the page.
    if (plot.current) drawSelection(plot.current, results, selection);
  }, [selection, results]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const build = (): (() => void) => {
      const length = Math.max(1, ...results.map((result) => result.calls.length), recorded?.series.length ?? 0);
      const xs = new Float64Array(length);
      for (let i = 0; i < length; i++) xs[i] = i + 1;
      // The worker's columns are drawn as they came; only a configuration that stopped early is padded with gaps.
      const ys = results.map((result): Float64Array | Array<number | null> => {
        const tokens = result.calls.contextTokens;
        if (tokens.length === length) return tokens;
        const column = new Array<number | null>(length).fill(null);
        tokens.forEach((value, k) => {
          column[k] = value;
        });
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
            value: (_u, v) => (v == null ? '—' : formatNumber(Math.round(v))),
          })),
          ...(recorded ? [recordedSeries()] : []),
        ],
        cursor: { drag: { x: true, y: false, setScale: true } },
        hooks: {
          drawClear: [(u) => drawPrefixBand(u, unseenPrefix)],
          draw: [
            (u) => {
              if ((u.data[0]?.length ?? 0) === 0) return; // built empty: the data comes next
              drawOverlay(u, results, contextWindow);
              if (recorded) drawRecordedCompactions(u, recorded, results.length + 1);
              drawSelection(u, results, selected.current);
            },
          ],
        },
      };
      // Built empty (the frame, axes and legend), drawn with its data after the next frame: two
      // shorter tasks instead of one that lays out the chart and draws thousands of points.
      const columns = recorded ? [...ys, recordedColumn(recorded, length)] : ys;
      const chart = new uPlot(options, [[], ...columns.map(() => [])], element);
      plot.current = chart;
      const cancelData = afterNextFrame(() => chart.setData([xs, ...columns] as uPlot.AlignedData));

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
      let width = options.width;
      const observer = new ResizeObserver(() => {
        // The observer also reports the size the chart was just built with: no second full draw for that.
        const next = Math.max(320, element.clientWidth);
        if (next === width) return;
        width = next;
        chart.setSize({ width, height: HEIGHT });
      });
      observer.observe(element);
      return () => {
        cancelData();
        observer.disconnect();
        chart.over.removeEventListener('click', onClick);
        chart.destroy();
        plot.current = null;
      };
    };
    // Built in a task of its own: drawing thousands of points is not added to the task that rendered the result.
    let cleanup: (() => void) | undefined;
    const timer = setTimeout(() => {
      cleanup = build();
    }, 0);
    return () => {
      clearTimeout(timer);
      cleanup?.();
    };
  }, [results, recorded, contextWindow, counterLabel, unseenPrefix]);

  return (
    <div
      ref={host}
      className="compare-chart"
      data-testid="compare.chart"
      data-series={results.length}
      data-recorded={recorded ? recorded.series.length : 0}
      data-prefix={unseenPrefix?.tokens ?? 0}
      role="img"
      aria-label={`Context tokens per call for ${results.length} configuration${results.length === 1 ? '' : 's'}, window ${formatNumber(contextWindow)} tokens.${unseenPrefix && unseenPrefix.tokens > 0 ? ` Shaded from 0: ${prefixBandLabel(unseenPrefix)}, included in every curve.` : ''} The compactions are listed below the chart.`}
    />
  );
}
