/** Picks the token counter: exact tokenizers or the seeds' estimators. */
import { COUNTER_IDS, COUNTER_LABELS, type CounterId } from '../../store/view/vocabulary.ts';
import { useAppStore } from '../../store/store.ts';

const HINTS: Record<CounterId, string> = {
  o200k: 'exact, gpt-tokenizer',
  cl100k: 'exact, gpt-tokenizer',
  chars4: 'estimate, images 1200 (pi)',
  len3: 'estimate (layered spec)',
  chars: 'characters (Augment)',
};

export function CounterSelect() {
  const counter = useAppStore((state) => state.counter);
  const setCounter = useAppStore((state) => state.setCounter);
  return (
    <label className="field inline">
      <span>Counter</span>
      <select value={counter} onChange={(event) => setCounter(event.target.value as CounterId)} data-testid="counter.select">
        {COUNTER_IDS.map((id) => (
          <option key={id} value={id}>
            {COUNTER_LABELS[id]} — {HINTS[id]}
          </option>
        ))}
      </select>
    </label>
  );
}
