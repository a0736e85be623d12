/**
 * Probe outcomes as a short list: category, what the probe looks for, kept (with the matching
 * span) or lost, and the entry it was read from. Lost ones first: they are what the user checks.
 */
import { useMemo, useState } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { ProbeOutcome } from '../../core/replay/types.ts';
import { preview } from '../../store/view/entry-ref.ts';

const SHOWN = 40;

export function ProbeOutcomeList({ outcomes, byId, testId, onlyLost = false, label = onlyLost ? 'Lost probes' : 'Probe outcomes' }: { outcomes: readonly ProbeOutcome[]; byId: ReadonlyMap<string, Entry>; testId: string; onlyLost?: boolean; label?: string }) {
  const [all, setAll] = useState(false);
  const sorted = useMemo(() => [...outcomes].filter((o) => !onlyLost || !o.kept).sort((a, b) => Number(a.kept) - Number(b.kept)), [outcomes, onlyLost]);
  if (sorted.length === 0) return <p className="muted small" data-testid={testId}>{onlyLost ? 'Nothing lost.' : 'No probe was read from these entries.'}</p>;
  const shown = all ? sorted : sorted.slice(0, SHOWN);
  return (
    <>
      {/* The list scrolls: focusable and named so the keyboard can scroll it. */}
      <ul className="probe-outcomes small" tabIndex={0} aria-label={label} data-testid={testId}>
        {shown.map(({ probe, kept, span }) => {
          const source = byId.get(probe.entryId);
          return (
            <li key={probe.id} className={kept ? 'kept' : 'lost'} data-testid="compare.probe-outcome" data-kept={kept}>
              <span className={kept ? 'badge ok-badge' : 'badge error'}>{kept ? 'kept' : 'lost'}</span>
              <span className="badge">{probe.category} · {probe.kind}</span> <span className="probe-text">{probe.text}</span>
              {kept && span && <q className="muted span">{span}</q>}
              <span className="muted source" title={source ? preview(source, 300) : undefined}>
                {' '}from {source ? `${source.role} entry #${source.index + 1}` : 'entry'} <code>{probe.entryId}</code>
              </span>
            </li>
          );
        })}
      </ul>
      {sorted.length > shown.length && (
        <button type="button" className="link small" onClick={() => setAll(true)}>
          Show all {sorted.length}
        </button>
      )}
    </>
  );
}
