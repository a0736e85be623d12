/**
 * Every retention probe of the replay, grouped by category, with kept / lost per configuration
 * (and the matching span of a kept one). A wrong probe can be dismissed: it is remembered for this
 * conversation and left out of the next run's scores; "restore" brings them all back.
 */
import { memo, useMemo, useState } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { Probe, ProbeCategory } from '../../core/probes/types.ts';
import { retention } from '../../store/view/replay-settings.ts';
import { PROBE_CATEGORIES } from '../../store/view/vocabulary.ts';
import type { ProbeOutcome } from '../../core/replay/types.ts';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { preview } from '../../store/view/entry-ref.ts';
import { colorOf } from './model.ts';
import { formatNumber } from '../common/format.ts';

export interface ProbeListProps {
  results: readonly ReplayResultView[];
  byId: ReadonlyMap<string, Entry>;
  dismissed: ReadonlySet<string>;
  onDismiss: (probe: Probe) => void;
  onRestore: () => void;
}

interface ProbeRow {
  probe: Probe;
  /** Per configuration: its outcome, or undefined when the source never left that context (kept verbatim). */
  outcomes: Array<ProbeOutcome | undefined>;
}

const SHOWN = 50;

export const ProbeList = memo(function ProbeList({ results, byId, dismissed, onDismiss, onRestore }: ProbeListProps) {
  const rows = useMemo(() => {
    const byProbe = new Map<string, ProbeRow>();
    results.forEach((result, i) => {
      for (const outcome of result.probes) {
        let row = byProbe.get(outcome.probe.id);
        if (!row) {
          row = { probe: outcome.probe, outcomes: results.map(() => undefined) };
          byProbe.set(outcome.probe.id, row);
        }
        row.outcomes[i] = outcome;
      }
    });
    return [...byProbe.values()].sort((a, b) => a.probe.entryIndex - b.probe.entryIndex);
  }, [results]);
  const visible = rows.filter((row) => !dismissed.has(row.probe.id));

  return (
    <section className="probe-list" data-testid="compare.probes" aria-label="Retention probes">
      <p className="small">
        {formatNumber(visible.length)} probes read from entries that left some configuration's verbatim context.{' '}
        <span data-testid="compare.probes.dismissed" data-value={dismissed.size}>
          {dismissed.size} dismissed
          {dismissed.size > 0 && (
            <>
              {' · '}
              <button type="button" className="link" onClick={onRestore} data-testid="compare.probes.restore">restore</button> (scores change on the next run)
            </>
          )}
        </span>
      </p>
      {PROBE_CATEGORIES.map((category) => {
        const group = visible.filter((row) => row.probe.category === category);
        if (group.length === 0) return null;
        return <ProbeGroup key={category} category={category} group={group} results={results} byId={byId} onDismiss={onDismiss} />;
      })}
    </section>
  );
});

function ProbeGroup({ category, group, results, byId, onDismiss }: { category: string; group: ProbeRow[]; results: readonly ReplayResultView[]; byId: ReadonlyMap<string, Entry>; onDismiss: (probe: Probe) => void }) {
  const [all, setAll] = useState(false);
  const shown = all ? group : group.slice(0, SHOWN);
  // The same figure as the totals table: probes whose source left that configuration's context.
  const scores = results.map((result) => retention(result.probes).byCategory[category as ProbeCategory]);
  return (
    <details className="probe-group" data-testid={`compare.probes.${category}`}>
      <summary>
        <strong>{category}</strong> ({group.length}) ·{' '}
        {results.map((result, i) => (
          <span key={i} className="probe-score" style={{ color: colorOf(i) }} title={result.label}>
            {result.label}: <span data-testid={`compare.probes.${category}.${i}`} data-kept={scores[i]!.kept} data-total={scores[i]!.total}>{scores[i]!.kept}/{scores[i]!.total}</span>{' '}
          </span>
        ))}
      </summary>
      <table className="compare-table small">
        <thead>
          <tr>
            <th scope="col">Probe</th>
            {results.map((result, i) => <th key={i} scope="col" style={{ color: colorOf(i) }}>{result.label}</th>)}
            <th scope="col"><span className="sr-only">Dismiss</span></th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const source = byId.get(row.probe.entryId);
            return (
              <tr key={row.probe.id} data-testid="compare.probe" data-probe-id={row.probe.id}>
                <td>
                  <span className="badge">{row.probe.kind}</span> {row.probe.text}
                  <div className="muted" title={source ? preview(source, 300) : undefined}>
                    from {source ? `${source.role} entry #${source.index + 1}` : 'entry'} <code>{row.probe.entryId}</code>
                  </div>
                </td>
                {row.outcomes.map((outcome, i) => (
                  <td key={i} data-kept={outcome ? outcome.kept : 'verbatim'}>
                    {!outcome ? <span className="muted" title="Its source entry never left this context">verbatim</span> : outcome.kept ? <><span className="ok">kept</span>{outcome.span && <q className="muted span">{outcome.span}</q>}</> : <span className="error">lost</span>}
                  </td>
                ))}
                <td>
                  <button type="button" className="link small" onClick={() => onDismiss(row.probe)} data-testid="compare.probe.dismiss" aria-label={`Dismiss the probe "${row.probe.text.slice(0, 60)}" as wrong`}>
                    Dismiss
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {group.length > shown.length && <button type="button" className="link small" onClick={() => setAll(true)}>Show all {group.length}</button>}
    </details>
  );
}
