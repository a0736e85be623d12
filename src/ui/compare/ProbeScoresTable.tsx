/**
 * The retention scores of each configuration: per probe category and in all, what the final
 * context still carries, and under it what the context carried right after the compaction that
 * removed them. Cells hold the counts in `data-kept` / `data-total` (compared with `cli eval --json`).
 */
import { memo } from 'react';
import { PROBE_CATEGORIES } from '../../store/view/vocabulary.ts';
import { retention } from '../../store/view/replay-settings.ts';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { colorOf, percent } from './model.ts';

export const ProbeScoresTable = memo(function ProbeScoresTable({ results }: { results: readonly ReplayResultView[] }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Probe scores per configuration">
      <table className="compare-table small" data-testid="compare.scores">
        <caption className="muted">Probes kept per configuration: what the final context still carries, and under it what the context carried right after each compaction.</caption>
        <thead>
          <tr>
            <th scope="col">Configuration</th>
            {PROBE_CATEGORIES.map((category) => <th key={category} scope="col">{category}</th>)}
            <th scope="col">All probes</th>
          </tr>
        </thead>
        <tbody>
          {results.map((result, index) => <ScoresRow key={index} result={result} index={index} />)}
        </tbody>
      </table>
    </div>
  );
});

function ScoresRow({ result, index }: { result: ReplayResultView; index: number }) {
  const { byCategory, all } = retention(result.probes);
  const id = (name: string) => `compare.totals.${index}.${name}`;
  return (
    <tr data-testid={`compare.scores.${index}`} className={result.error ? 'failed' : undefined}>
      <th scope="row">
        <span className="swatch" style={{ background: colorOf(index) }} aria-hidden /> {result.label}
      </th>
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
    </tr>
  );
}
