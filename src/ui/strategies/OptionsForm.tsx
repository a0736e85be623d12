/**
 * A strategy's options with the seed's defaults, a one-line explanation each, and the validation
 * error of a bad value next to the field that has it.
 */
import type { OptionSpec } from '../../core/compaction/options.ts';

export interface OptionsFormProps {
  specs: readonly OptionSpec[];
  values: Record<string, string>;
  error: { option: string; message: string } | undefined;
  onChange: (name: string, value: string | undefined) => void;
  onReset: () => void;
}

export function OptionsForm({ specs, values, error, onChange, onReset }: OptionsFormProps) {
  return (
    <fieldset className="options" data-testid="compact.options">
      <legend>
        Options{' '}
        <button type="button" className="link small" onClick={onReset} data-testid="compact.options.reset">
          Reset to the seed's defaults
        </button>
      </legend>
      {specs.map((spec) => {
        const id = `option-${spec.name}`;
        const value = values[spec.name];
        const invalid = error !== undefined && (error.option === spec.name || (spec.alias !== undefined && error.option === spec.alias));
        return (
          <div key={spec.name} className={`option${invalid ? ' invalid' : ''}`}>
            <label htmlFor={id}>
              <code>{spec.name}</code>
              {spec.unit && <span className="muted small"> ({spec.unit})</span>}
            </label>
            {spec.type === 'boolean' ? (
              <select id={id} value={value ?? String(spec.default)} onChange={(e) => onChange(spec.name, e.target.value === String(spec.default) ? undefined : e.target.value)} data-testid={`compact.option.${spec.name}`}>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : spec.type === 'enum' ? (
              <select id={id} value={value ?? String(spec.default)} onChange={(e) => onChange(spec.name, e.target.value === String(spec.default) ? undefined : e.target.value)} data-testid={`compact.option.${spec.name}`}>
                {spec.values?.map((v) => (
                  <option key={v} value={v}>{v}</option>
                ))}
              </select>
            ) : spec.type === 'text' ? (
              <textarea id={id} rows={3} value={value ?? String(spec.default)} onChange={(e) => onChange(spec.name, e.target.value)} data-testid={`compact.option.${spec.name}`} aria-invalid={invalid} />
            ) : (
              <input
                id={id}
                type="text"
                inputMode={spec.type === 'string' ? 'text' : 'decimal'}
                value={value ?? String(spec.default)}
                onChange={(e) => onChange(spec.name, e.target.value === String(spec.default) ? undefined : e.target.value)}
                aria-invalid={invalid}
                aria-describedby={`${id}-help`}
                data-testid={`compact.option.${spec.name}`}
              />
            )}
            <span id={`${id}-help`} className="muted small help">
              {spec.description} Default {String(spec.default) === '' ? 'empty' : String(spec.default).length > 40 ? 'set by the seed' : <code>{String(spec.default)}</code>}.
            </span>
            {invalid && (
              <span className="error small" role="alert" data-testid="compact.option-error">
                {error?.message}
              </span>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
