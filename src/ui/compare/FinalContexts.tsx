/**
 * The final contexts side by side, one column per configuration (virtualized: a long session's
 * context has thousands of entries), each entry with its origin; under each column what that
 * configuration lost: the probes its final context no longer carries, with their source entry.
 * The columns' lists mount one per frame: each list measures its rows as it mounts, and four at
 * once made one long task.
 */
import { memo } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { VirtualList } from '../common/VirtualList.tsx';
import { preview } from '../../store/view/entry-ref.ts';
import { colorOf, CONTEXT_LIST_HEIGHT, entryOfRef } from './model.ts';
import { ProbeOutcomeList } from './ProbeOutcomeList.tsx';
import { formatNumber } from '../common/format.ts';
import { useStages } from './use-comparison.ts';

export const FinalContexts = memo(function FinalContexts({ results, byId, dismissed }: { results: readonly ReplayResultView[]; byId: ReadonlyMap<string, Entry>; dismissed: ReadonlySet<string> }) {
  const shown = useStages(results.length);
  return (
    <div className="final-contexts" style={{ gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))' }} data-testid="compare.final">
      {results.map((result, i) => {
        const lost = result.probes.filter((outcome) => !outcome.kept && !dismissed.has(outcome.probe.id));
        const made = result.finalContext.filter((ref) => ref.origin !== 'journal').length;
        return (
          <section key={i} className="final-column" data-testid={`compare.final.${i}`} style={{ borderTopColor: colorOf(i) }} aria-label={`Final context of ${result.label}`}>
            <h5>{result.label}</h5>
            <p className="muted small">
              {formatNumber(result.finalContext.length)} entries · {made} made by the strategy
            </p>
            <div className="final-list" aria-busy={i >= shown}>
              {i < shown && (
                <VirtualList
                  count={result.finalContext.length}
                  estimate={() => 44}
                  label={`Final context of ${result.label}, ${result.finalContext.length} entries`}
                  testId={`compare.final.${i}.context`}
                  height={CONTEXT_LIST_HEIGHT}
                  render={(n) => {
                    const ref = result.finalContext[n];
                    if (!ref) return null;
                    const entry = entryOfRef(ref, byId);
                    return (
                      <div className={`ctx-item origin-${ref.origin}`} data-testid="compare.final.entry" data-origin={ref.origin}>
                        <span className={`role role-${entry?.role ?? 'system'}`}>{entry?.role ?? '?'}</span>
                        <span className={ref.origin === 'summary' ? 'badge summary' : 'badge'}>{ref.origin}</span>
                        <span className="ctx-text">{entry ? preview(entry, 140) : `${ref.origin === 'journal' ? ref.entryId : ''} (not in the journal any more)`}</span>
                      </div>
                    );
                  }}
                />
              )}
            </div>
            <h6>Lost ({lost.length})</h6>
            <ProbeOutcomeList outcomes={lost} byId={byId} testId={`compare.final.${i}.lost`} onlyLost />
          </section>
        );
      })}
    </div>
  );
});
