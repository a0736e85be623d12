/**
 * The unseen prefix the user estimates for transcripts that recorded no usage (system prompt and
 * tool definitions the transcript does not show): 0 (default), a preset per agent, or a number of
 * tokens. Persisted with the other preferences; Compact and Compare send it, and the worker applies
 * it only where no call recorded usage.
 */
import { useAppStore } from '../../store/store.ts';
import { UNSEEN_PREFIX_PRESETS, unseenEstimateNote } from '../../store/view/replay-settings.ts';

/** The forms that send the estimate check it with the same function. */

export function UnseenPrefixField() {
  const value = useAppStore((s) => s.unseenEstimate);
  const setValue = useAppStore((s) => s.setUnseenEstimate);
  const preset = UNSEEN_PREFIX_PRESETS.find((p) => p.id === value);
  const choice = value.trim() === '' ? 'none' : preset ? preset.id : 'tokens';
  const { note, invalid } = unseenEstimateNote(value);
  return (
    <fieldset className="field inline unseen-prefix" data-testid="unseen.field">
      <legend>Unseen prefix where no usage was recorded (an estimate)</legend>
      <select
        aria-label="Unseen prefix estimate"
        value={choice}
        onChange={(e) => setValue(e.target.value === 'none' ? '' : e.target.value === 'tokens' ? '10000' : e.target.value)}
        data-testid="unseen.choice"
      >
        <option value="none">0 (count only the transcript)</option>
        {UNSEEN_PREFIX_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>{`${p.id} preset: ${p.tokens.toLocaleString('en-US')} tokens`}</option>
        ))}
        <option value="tokens">A number of tokens…</option>
      </select>
      {choice === 'tokens' && (
        <input type="number" min={0} step={100} aria-label="Unseen prefix tokens (estimate)" value={value} onChange={(e) => setValue(e.target.value)} data-testid="unseen.tokens" />
      )}
      <span className={invalid ? 'error small' : 'muted small'} role={invalid ? 'alert' : undefined} data-testid="unseen.note">
        {note} A transcript that recorded its usage uses that instead.
      </span>
    </fieldset>
  );
}
