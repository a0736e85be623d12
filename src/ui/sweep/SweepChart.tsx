/**
 * The sweep's scatter chart (uPlot): each point at its tokens per task as a ratio to the
 * uncompacted run (x) and its retention score (y); points that overflow the window drawn apart
 * (red squares), the Pareto front as a line, the recommended point ringed. Click a point to open
 * its replay in Compare; the same points are listed in the table below for the keyboard.
 * Loaded on its own (uPlot is a chunk of its own).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SweepResult } from '../../core/sweep/types.ts';
import { chartColumns, nearestPoint } from './sweep-model.ts';

export interface SweepChartProps {
  result: SweepResult;
  onPick: (index: number) => void;
}

const HEIGHT = 300;
/** Farthest a click may be from a point to pick it. Unit: CSS pixels. */
const PICK_RADIUS = 14;

export default function SweepChart({ result, onPick }: SweepChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const columns = chartColumns(result);
    const percent = (v: number | null) => (v == null ? '—' : `${(v * 100).toFixed(1)}%`);
    const dots = (stroke: string, fill: string, size: number): uPlot.Series => ({ stroke, fill, width: 0, paths: () => null, points: { show: true, size, stroke, fill, width: 1.5 }, value: (_u, v) => percent(v) });
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: HEIGHT,
      scales: { x: { time: false, range: (_u, min, max) => [Math.max(0, (min ?? 0) - 0.05), (max ?? 1) + 0.05] }, y: { range: [0, 1.02] } },
      axes: [
        { label: 'tokens per task, ratio to uncompacted', stroke: '#475569', values: (_u, splits) => splits.map((v) => `${v.toFixed(2)}x`) },
        { label: 'retention score', stroke: '#475569', size: 50, values: (_u, splits) => splits.map((v) => `${Math.round(v * 100)}%`) },
      ],
      series: [
        { label: 'ratio', value: (_u, v) => (v == null ? '—' : `${v.toFixed(3)}x`) },
        dots('#2563eb', '#93c5fd', 9),
        { ...dots('#dc2626', '#fca5a5', 9), label: 'overflows the window', points: { show: true, size: 10, stroke: '#dc2626', fill: '#dc2626', width: 0, space: 0 } },
        { label: 'Pareto front', stroke: '#0f766e', width: 2, spanGaps: true, points: { show: false }, value: (_u, v) => percent(v) },
        { ...dots('#b45309', 'rgba(0,0,0,0)', 18), label: 'recommended' },
      ],
      legend: { live: false },
      cursor: { drag: { x: false, y: false } },
    };
    options.series[1]!.label = 'fits the window';
    const chart = new uPlot(options, [columns.xs, columns.fits, columns.overflows, columns.front, columns.recommended] as uPlot.AlignedData, element);

    const onClick = (event: MouseEvent) => {
      const rect = chart.over.getBoundingClientRect();
      const left = event.clientX - rect.left;
      const top = event.clientY - rect.top;
      const positions = columns.order.map((index, k) => ({ index, x: chart.valToPos(columns.xs[k]!, 'x'), y: chart.valToPos(result.points[index]!.retention, 'y') }));
      const picked = nearestPoint(positions, left, top, PICK_RADIUS);
      if (picked !== undefined) pick.current(picked);
    };
    chart.over.addEventListener('click', onClick);
    let width = options.width;
    const observer = new ResizeObserver(() => {
      const next = Math.max(320, element.clientWidth);
      if (next === width) return;
      width = next;
      chart.setSize({ width, height: HEIGHT });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.over.removeEventListener('click', onClick);
      chart.destroy();
    };
  }, [result]);

  const overflowing = result.points.filter((point) => point.overflowCalls > 0).length;
  return (
    <div
      ref={host}
      className="sweep-chart"
      data-testid="sweep.chart"
      data-points={result.points.length}
      data-front={result.pareto.length}
      role="img"
      aria-label={`Retention score against tokens per task for ${result.points.length} points, ${overflowing} of them overflowing the window; the Pareto front joins ${result.pareto.length}. The points are listed in the table below.`}
    />
  );
}
