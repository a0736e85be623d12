/** Text legend of the fold timeline: what each level colour, the retrieved strip and each key-moment marker mean. */
import type { KeyMoment } from './types.ts';

const LEVELS = ['L0 full', 'L1', 'L2', 'L3', 'L4 one line'] as const;
const MOMENTS: { kind: KeyMoment['kind']; label: string }[] = [
  { kind: 'error', label: 'error' },
  { kind: 'first-success', label: 'first success' },
  { kind: 'state-change', label: 'state change' },
  { kind: 'bookmark', label: 'bookmark' },
];

export function TimelineLegend() {
  return (
    <ul className="timeline-legend" data-testid="timeline.legend" aria-label="Timeline legend">
      {LEVELS.map((label, level) => (
        <li key={label}>
          <span className={`timeline-swatch l${level}`} aria-hidden="true" />
          {label}
        </li>
      ))}
      <li key="retrieved">
        <span className="timeline-swatch retrieved" aria-hidden="true" />
        R retrieved (recalled, fades)
      </li>
      {MOMENTS.map(({ kind, label }) => (
        <li key={kind}>
          <span className={`timeline-swatch moment-${kind}`} aria-hidden="true" />
          {label}
        </li>
      ))}
    </ul>
  );
}
