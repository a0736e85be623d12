/**
 * The source agent's own run as one row of the Compare totals, on the same axes as the
 * configurations: calls that recorded usage, its own compactions, peak, overflowing calls and tokens
 * per task, from the prompt tokens its provider reported. Labelled as what it is; not a strategy
 * that can be applied. Cells carry `data-value` like the configurations' (`eval --json` `recorded`).
 */
import type { RecordedRun } from '../../core/replay/recorded-run.ts';
import { formatNumber } from '../common/format.ts';
import { RECORDED_COLOR, RECORDED_LABEL } from './recorded-series.ts';

export function RecordedRow({ recorded }: { recorded: RecordedRun }) {
  const id = (name: string) => `compare.totals.recorded.${name}`;
  const cell = (name: string, value: number) => <td data-testid={id(name)} data-value={value}>{formatNumber(value)}</td>;
  const none = <td className="muted">—</td>;
  return (
    <tr data-testid="compare.totals.recorded" className="recorded-row">
      <th scope="row" title="What the agent itself sent, from the usage its provider recorded per call (system prompt and tool definitions included), with its own compactions. Not a strategy: it cannot be applied.">
        <span className="swatch" style={{ background: RECORDED_COLOR }} aria-hidden /> {RECORDED_LABEL}
        <span className="muted block small">provider-reported prompt tokens; not a strategy</span>
      </th>
      <td data-testid={id('calls')} data-value={recorded.recordedCalls}>{formatNumber(recorded.recordedCalls)}{recorded.recordedCalls < recorded.series.length ? <span className="muted"> of {formatNumber(recorded.series.length)}</span> : null}</td>
      {cell('compactions', recorded.compactions.length)}
      {cell('peakTokens', recorded.peakTokens)}
      {cell('overflowCalls', recorded.overflowCalls)}
      {cell('tokensPerTask', recorded.tokensPerTask)}
      {none}
      {none}
      {none}
    </tr>
  );
}
