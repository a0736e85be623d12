/** default / compact / quiet (A12), as a keyboard-friendly radio group. */
import { VERBOSITIES, type Verbosity } from '../../store/view/transcript.ts';
import { useAppStore } from '../../store/store.ts';

const HINTS: Record<Verbosity, string> = {
  default: 'Every entry in full',
  compact: 'Tool calls, results and intermediate messages on one line; final answers in full',
  quiet: 'Your prompts and final answers only',
};

export function VerbosityToggle() {
  const verbosity = useAppStore((state) => state.verbosity);
  const setVerbosity = useAppStore((state) => state.setVerbosity);
  return (
    <fieldset className="segmented" data-testid="verbosity">
      <legend className="visually-hidden">Verbosity</legend>
      {VERBOSITIES.map((mode) => (
        <label key={mode} title={HINTS[mode]}>
          <input type="radio" name="verbosity" value={mode} checked={verbosity === mode} onChange={() => setVerbosity(mode)} data-testid={`verbosity.${mode}`} />
          {mode}
        </label>
      ))}
    </fieldset>
  );
}
