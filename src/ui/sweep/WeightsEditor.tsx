/**
 * The retention score's weights, one per probe category, with the defaults shown beside them:
 * changing one scores the saved sweep again (front and recommendation included) without replaying.
 */
import { useState } from 'react';
import type { RetentionWeights } from '../../core/sweep/types.ts';
import { checkWeights, DEFAULT_RETENTION_WEIGHTS } from '../../store/view/sweep.ts';
import { PROBE_CATEGORIES, type ProbeCategory } from '../../store/view/vocabulary.ts';

export interface WeightsEditorProps {
  weights: RetentionWeights;
  onChange: (weights: RetentionWeights) => void;
}

export function WeightsEditor({ weights, onChange }: WeightsEditorProps) {
  const [texts, setTexts] = useState<Record<ProbeCategory, string>>(() => textsOf(weights));
  const [error, setError] = useState<string>();
  const edit = (category: ProbeCategory, text: string) => {
    const next = { ...texts, [category]: text };
    setTexts(next);
    const values = Object.fromEntries(PROBE_CATEGORIES.map((c) => [c, next[c].trim() === '' ? Number.NaN : Number(next[c])])) as RetentionWeights;
    try {
      checkWeights(values);
      setError(undefined);
      onChange(values);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const isDefault = PROBE_CATEGORIES.every((c) => weights[c] === DEFAULT_RETENTION_WEIGHTS[c]);
  return (
    <fieldset className="sweep-weights" data-testid="sweep.weights">
      <legend>Retention weights</legend>
      {PROBE_CATEGORIES.map((category) => (
        <label key={category} className="field inline">
          <span>{category}</span>
          <input type="number" min={0} step="any" value={texts[category]} onChange={(e) => edit(category, e.target.value)} data-testid={`sweep.weight.${category}`} aria-describedby="sweep-weights-defaults" />
        </label>
      ))}
      <button type="button" className="small" disabled={isDefault} onClick={() => {
        setTexts(textsOf(DEFAULT_RETENTION_WEIGHTS));
        setError(undefined);
        onChange({ ...DEFAULT_RETENTION_WEIGHTS });
      }} data-testid="sweep.weights.reset">Defaults</button>
      <p id="sweep-weights-defaults" className="muted small">
        Defaults: {PROBE_CATEGORIES.map((c) => `${c} ${DEFAULT_RETENTION_WEIGHTS[c]}`).join(', ')}. The score is each category's kept share, averaged with these weights over the categories that have probes.
      </p>
      {error && <p className="error small" role="alert" data-testid="sweep.weights.error">{error}</p>}
    </fieldset>
  );
}

function textsOf(weights: Readonly<RetentionWeights>): Record<ProbeCategory, string> {
  return Object.fromEntries(PROBE_CATEGORIES.map((c) => [c, String(weights[c])])) as Record<ProbeCategory, string>;
}
