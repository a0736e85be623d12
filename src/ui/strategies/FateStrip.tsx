/** The plan at a glance: one band across the input, coloured by what happens to each entry, with the cut marked. */
import { useMemo } from 'react';
import type { Fate } from '../../core/compaction/types.ts';

const LABELS: Record<Fate, string> = { keep: 'kept verbatim', summarize: 'summarized', compress: 'compressed', drop: 'dropped' };

export function FateStrip({ fates, cut, testId = 'plan.strip' }: { fates: readonly Fate[]; cut: number | undefined; testId?: string }) {
  const runs = useMemo(() => {
    const out: Array<{ fate: Fate; from: number; to: number }> = [];
    fates.forEach((fate, i) => {
      const last = out[out.length - 1];
      if (last && last.fate === fate) last.to = i;
      else out.push({ fate, from: i, to: i });
    });
    return out;
  }, [fates]);
  const total = Math.max(1, fates.length);
  return (
    <div>
      <div className="fate-strip" role="img" aria-label={runs.map((r) => `entries ${r.from + 1}-${r.to + 1} ${LABELS[r.fate]}`).join('; ')} data-testid={testId}>
        {runs.map((run) => (
          <div key={run.from} className={`fate fate-${run.fate}`} style={{ width: `${((run.to - run.from + 1) / total) * 100}%` }} title={`entries ${run.from + 1}–${run.to + 1}: ${LABELS[run.fate]}`} />
        ))}
        {cut !== undefined && <div className="cut-marker" style={{ left: `${(cut / total) * 100}%` }} title={`cut before entry ${cut + 1}`} />}
      </div>
      <div className="legend small">
        {(Object.keys(LABELS) as Fate[]).map((fate) => (
          <span key={fate}>
            <i className={`swatch fate-${fate}`} /> {LABELS[fate]} ({fates.filter((f) => f === fate).length})
          </span>
        ))}
      </div>
    </div>
  );
}
