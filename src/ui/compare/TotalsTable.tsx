/**
 * One row per configuration: calls, compactions, peak, overflowing calls, tokens per task,
 * summarizer tokens, cost and where the trigger fires against the window (the retention scores are
 * a table of their own, ProbeScoresTable.tsx, so both fit a 1280 px page).
 * Each figure's cell holds the raw number in `data-value` (the e2e test compares them with
 * `cli eval --json`). A failed configuration shows its reason in its row, a configuration that
 * cannot keep inside the window its warnings; the others are unaffected.
 */
import { memo } from 'react';
import type { RecordedRun } from '../../core/replay/recorded-run.ts';
import { triggerText } from '../../store/view/comparison.ts';
import { RecordedRow } from './RecordedRow.tsx';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { colorOf } from './model.ts';
import { formatNumber } from '../common/format.ts';

const fmt = formatNumber;
/** Columns of the table (a row's notes span them all). */
const TOTALS_COLUMNS = 9;

export const TotalsTable = memo(function TotalsTable({ results, recorded, counterLabel }: { results: readonly ReplayResultView[]; recorded?: RecordedRun | null | undefined; counterLabel: string }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Totals per configuration">
      <table className="compare-table small" data-testid="compare.totals">
        <caption className="muted">Totals per configuration ({counterLabel}).</caption>
        <thead>
          <tr>
            <th scope="col">Configuration</th>
            <th scope="col">Calls</th>
            <th scope="col">Compactions</th>
            <th scope="col">Peak tokens</th>
            <th scope="col" title="Calls whose context was over the window: the real agent would have failed them">Overflowed</th>
            <th scope="col" title="Sum of context tokens over all calls, plus summarizer input and output">Tokens per task</th>
            <th scope="col">Summarizer in / out</th>
            <th scope="col">Cost</th>
            <th scope="col" title="The context size at which the configuration's trigger fires, against the window">Trigger</th>
          </tr>
        </thead>
        <tbody>
          {results.map((result, i) => <TotalsRow key={i} result={result} index={i} />)}
          {recorded && <RecordedRow recorded={recorded} />}
        </tbody>
      </table>
    </div>
  );
});

function TotalsRow({ result, index }: { result: ReplayResultView; index: number }) {
  const t = result.totals;
  const warnings = result.warnings ?? [];
  const id = (name: string) => `compare.totals.${index}.${name}`;
  const cell = (name: string, value: number, text = fmt(value)) => <td data-testid={id(name)} data-value={value}>{text}</td>;
  return (
    <>
      <tr data-testid={`compare.totals.${index}`} className={result.error ? 'failed' : undefined}>
        <th scope="row">
          <span className="swatch" style={{ background: colorOf(index) }} aria-hidden /> <span data-testid={id('label')}>{result.label}</span>
        </th>
        {cell('calls', t.calls)}
        {cell('compactions', t.compactions)}
        {cell('peakTokens', t.peakTokens)}
        {cell('overflowCalls', t.overflowCalls)}
        {cell('tokensPerTask', t.tokensPerTask)}
        <td data-testid={id('summarizer')} data-input={t.summarizerTokens.input} data-output={t.summarizerTokens.output}>
          {fmt(t.summarizerTokens.input)} / {fmt(t.summarizerTokens.output)}
        </td>
        <td data-testid={id('cost')} data-value={t.cost ?? ''} title={t.costModel ? `at ${t.costModel} prices` : 'No price known for the chosen model'}>
          {t.cost === null ? '—' : `$${t.cost.toFixed(4)}`}
          {t.costModel && <span className="muted"> {t.costModel}</span>}
        </td>
        <td data-testid={id('trigger')} data-value={result.trigger?.tokens ?? ''}>{result.trigger ? triggerText(result.trigger, result.contextWindow) : '—'}</td>
      </tr>
      {(result.error || result.notes.length > 0 || warnings.length > 0) && (
        <tr className="row-notes">
          <td colSpan={TOTALS_COLUMNS}>
            {warnings.length > 0 && (
              <ul className="warn notes" data-testid={id('warnings')}>
                {warnings.map((w, n) => <li key={n} data-kind={w.kind} data-overflow-calls={w.overflowCalls}>⚠ {w.message}</li>)}
              </ul>
            )}
            {result.error && <p className="error" role="alert" data-testid={id('error')}>{result.label} stopped: {result.error}{result.calls.length > 0 ? ` (the ${fmt(result.calls.length)} calls before it are kept)` : ''}</p>}
            {result.notes.length > 0 && <ul className="muted notes">{result.notes.map((note, n) => <li key={n}>{note}</li>)}</ul>}
          </td>
        </tr>
      )}
    </>
  );
}
