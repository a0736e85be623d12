/**
 * One row per configuration: calls, compactions, peak, overflowing calls, tokens per task,
 * summarizer tokens, cost, the retention scores and where the trigger fires against the window.
 * Each figure's cell holds the raw number in `data-value` (the e2e test compares them with
 * `cli eval --json`). A failed configuration shows its reason in its row, a configuration that
 * cannot keep inside the window its warnings; the others are unaffected.
 */
import { memo } from 'react';
import { PROBE_CATEGORIES } from '../../core/probes/types.ts';
import type { RecordedRun } from '../../core/replay/recorded-run.ts';
import { triggerText } from '../../core/replay/trigger-point.ts';
import { RecordedRow } from './RecordedRow.tsx';
import type { ReplayResultView } from '../../worker/compare-view.ts';
import { retention } from '../../core/replay/retention.ts';
import { colorOf, percent } from './model.ts';
import { formatNumber } from '../common/format.ts';

const fmt = formatNumber;

export const TotalsTable = memo(function TotalsTable({ results, recorded, counterLabel }: { results: readonly ReplayResultView[]; recorded?: RecordedRun | null | undefined; counterLabel: string }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Totals per configuration">
      <table className="compare-table small" data-testid="compare.totals">
        <caption className="muted">Totals per configuration ({counterLabel}); probe scores count what the final context still carries, and under them what the context carried right after each compaction.</caption>
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
            {PROBE_CATEGORIES.map((category) => <th key={category} scope="col">{category}</th>)}
            <th scope="col">All probes</th>
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
  const { byCategory, all } = retention(result.probes);
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
        {PROBE_CATEGORIES.map((category) => {
          const score = byCategory[category];
          const at = result.compactionScores[category];
          return (
            <td key={category} data-testid={id(`score.${category}`)} data-kept={score.kept} data-total={score.total}>
              {score.total === 0 ? <span className="muted">—</span> : `${score.kept}/${score.total} (${percent(score.kept, score.total)})`}
              {at.total > 0 && (
                <span className="muted block" data-testid={id(`at-compaction.${category}`)} data-kept={at.kept} data-total={at.total} title="Checked right after the compaction that removed them">
                  at compaction {at.kept}/{at.total}
                </span>
              )}
            </td>
          );
        })}
        <td data-testid={id('score')} data-kept={all.kept} data-total={all.total}>
          <strong>{all.total === 0 ? '—' : `${all.kept}/${all.total} (${percent(all.kept, all.total)})`}</strong>
        </td>
        <td data-testid={id('trigger')} data-value={result.trigger?.tokens ?? ''}>{result.trigger ? triggerText(result.trigger, result.contextWindow) : '—'}</td>
      </tr>
      {(result.error || result.notes.length > 0 || warnings.length > 0) && (
        <tr className="row-notes">
          <td colSpan={10 + PROBE_CATEGORIES.length}>
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
