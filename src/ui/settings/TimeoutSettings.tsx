/**
 * The timeouts of every model request, in seconds: connect (no response headers), idle stream
 * (no bytes of a reply), total (a whole summary, all attempts) and reply (a whole live-session
 * reply, all attempts). Kept with the other
 * preferences and applied to summaries, judged runs and live sessions from the next request on.
 * A value out of range is shown with why, and the one in use stays.
 */
import { useState } from 'react';
import { timeoutProblem, type TimeoutSeconds } from '../../store/view/model-settings.ts';
import { useAppStore } from '../../store/store.ts';

const FIELDS: ReadonlyArray<{ id: keyof TimeoutSeconds; label: string }> = [
  { id: 'connect', label: 'Connect (no response headers)' },
  { id: 'idle', label: 'Idle stream (no bytes of the reply)' },
  { id: 'total', label: 'Total (a whole summary)' },
  { id: 'reply', label: 'Reply (a whole live-session reply)' },
];

export function TimeoutSettings() {
  const timeouts = useAppStore((s) => s.timeouts);
  const setTimeouts = useAppStore((s) => s.setTimeouts);
  const [drafts, setDrafts] = useState<Partial<Record<keyof TimeoutSeconds, string>>>({});
  const problems = FIELDS.map(({ id }) => (drafts[id] === undefined ? undefined : timeoutProblem(id, drafts[id].trim() === '' ? NaN : Number(drafts[id])))).filter((p) => p !== undefined);
  return (
    <fieldset className="timeouts" data-testid="settings.timeouts">
      <legend>Request timeouts, seconds</legend>
      {FIELDS.map(({ id, label }) => (
        <label key={id} className="field inline">
          <span>{label}</span>
          <input
            type="number" min={id === 'total' || id === 'reply' ? 1 : 0} max={3600} step="any" inputMode="decimal"
            value={drafts[id] ?? String(timeouts[id])}
            onChange={(e) => {
              const text = e.target.value;
              setDrafts((d) => ({ ...d, [id]: text }));
              const value = text.trim() === '' ? NaN : Number(text);
              if (timeoutProblem(id, value) === undefined) setTimeouts({ [id]: value });
            }}
            onBlur={() => setDrafts((d) => (timeoutProblem(id, Number(d[id] ?? timeouts[id])) === undefined ? { ...d, [id]: undefined } : d))}
            data-testid={`settings.timeouts.${id}`}
          />
        </label>
      ))}
      {problems.length > 0 && <p className="error small" role="alert" data-testid="settings.timeouts.problem">{problems.join(' ')} The value in use stays.</p>}
    </fieldset>
  );
}
