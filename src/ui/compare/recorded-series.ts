/**
 * The source agent's own run on the compare chart: one more curve (the prompt tokens its provider
 * reported per call, gaps where a call recorded none) drawn in ink with a dotted line, and a square
 * where the agent compacted itself. It is not a configuration: a click never picks it.
 */
import uPlot from 'uplot';
import type { RecordedRun } from '../../core/replay/recorded-run.ts';
import { formatNumber } from '../common/format.ts';

export const RECORDED_COLOR = '#111827';
export const RECORDED_LABEL = 'As recorded (the agent\'s own run)';

/** The recorded curve as a chart column of `length` calls. */
export function recordedColumn(recorded: RecordedRun, length: number): Array<number | null> {
  const column = new Array<number | null>(length).fill(null);
  for (const point of recorded.series) if (point.call < length) column[point.call] = point.sentTokens;
  return column;
}

export function recordedSeries(): uPlot.Series {
  return {
    label: RECORDED_LABEL,
    stroke: RECORDED_COLOR,
    width: 2,
    dash: [2, 3],
    points: { show: false },
    spanGaps: false,
    value: (_u, v) => (v == null ? '—' : formatNumber(Math.round(v))),
  };
}

/** A square at each of the agent's own compactions, on its curve (series `index` of the chart). */
export function drawRecordedCompactions(u: uPlot, recorded: RecordedRun, index: number): void {
  if (u.series[index]?.show === false) return;
  const px = uPlot.pxRatio;
  const size = 4 * px;
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = RECORDED_COLOR;
  for (const compaction of recorded.compactions) {
    const sent = recorded.series[compaction.call]?.sentTokens;
    if (sent == null) continue;
    const x = u.valToPos(compaction.call + 1, 'x', true);
    const y = u.valToPos(sent, 'y', true);
    ctx.fillRect(x - size, y - size, 2 * size, 2 * size);
  }
  ctx.restore();
}
