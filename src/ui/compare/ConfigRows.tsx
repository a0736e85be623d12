/**
 * The configurations to replay: one to eight rows, each a strategy, its options (the Compact tab's
 * form, one row open at a time) and an optional label; add, duplicate, remove. A bad option is
 * named on its row even while the row is folded.
 */
import { useState } from 'react';
import { useAppStore } from '../../store/store.ts';
import { MAX_COMPARE_CONFIGS } from '../../store/view/replay-settings.ts';
import { configOptionSpecs, configTitle } from '../../store/view/strategies.ts';
import { OptionsForm } from '../strategies/OptionsForm.tsx';
import { checkConfig, COMPARABLE_STRATEGIES, uniqueLabels } from './configs.ts';
import { colorOf } from './model.ts';

export function ConfigRows({ disabled }: { disabled: boolean }) {
  const rows = useAppStore((s) => s.compareConfigs);
  const add = useAppStore((s) => s.addCompareConfig);
  const [openKey, setOpenKey] = useState<string>();
  const labels = uniqueLabels(rows);
  const unused = COMPARABLE_STRATEGIES.find((id) => !rows.some((row) => row.strategy === id)) ?? COMPARABLE_STRATEGIES[0] ?? 'pi';

  return (
    <fieldset className="options compare-configs" data-testid="compare.configs" disabled={disabled}>
      <legend>
        Configurations ({rows.length} of at most {MAX_COMPARE_CONFIGS}) · {rows.length === 1 ? 'one replay' : `a compare of ${rows.length}`}
      </legend>
      <ol className="config-rows">
        {rows.map((row, index) => (
          <ConfigRow key={row.key} index={index} count={rows.length} placeholder={labels[index] ?? row.strategy} open={openKey === row.key} onToggle={() => setOpenKey(openKey === row.key ? undefined : row.key)} />
        ))}
      </ol>
      <button type="button" onClick={() => add(unused)} disabled={rows.length >= MAX_COMPARE_CONFIGS} data-testid="compare.config.add">
        + Add a configuration
      </button>
    </fieldset>
  );
}

function ConfigRow({ index, count, placeholder, open, onToggle }: { index: number; count: number; placeholder: string; open: boolean; onToggle: () => void }) {
  const row = useAppStore((s) => s.compareConfigs[index]);
  const setStrategy = useAppStore((s) => s.setCompareStrategy);
  const setLabel = useAppStore((s) => s.setCompareLabel);
  const setOption = useAppStore((s) => s.setCompareOption);
  const resetOptions = useAppStore((s) => s.resetCompareOptions);
  const remove = useAppStore((s) => s.removeCompareConfig);
  const duplicate = useAppStore((s) => s.duplicateCompareConfig);
  const setHooks = useAppStore((s) => s.setCompareHooks);
  const hookModule = useAppStore((s) => s.hookSource.trim() !== '');
  if (!row) return null;
  const problem = checkConfig(row);
  const known = COMPARABLE_STRATEGIES.includes(row.strategy);
  const setCount = Object.keys(row.values).length;
  const prefix = `compare.config.${index}`;

  return (
    <li className={`config-row${problem ? ' invalid' : ''}`} data-testid={prefix}>
      <div className="config-line">
        <span className="swatch" style={{ background: colorOf(index) }} aria-hidden />
        <label className="field inline">
          <span className="sr-only">Strategy of configuration {index + 1}</span>
          <select value={row.strategy} onChange={(e) => setStrategy(index, e.target.value)} data-testid={`${prefix}.strategy`} aria-label={`Strategy of configuration ${index + 1}`}>
            {!known && <option value={row.strategy}>{row.strategy} (not available)</option>}
            {COMPARABLE_STRATEGIES.map((id) => (
              <option key={id} value={id}>{configTitle(id)}</option>
            ))}
          </select>
        </label>
        <input type="text" className="config-label" value={row.label} placeholder={placeholder} maxLength={80} onChange={(e) => setLabel(index, e.target.value)} aria-label={`Label of configuration ${index + 1} (optional)`} data-testid={`${prefix}.label`} />
        <button type="button" onClick={onToggle} aria-expanded={open} disabled={!known} data-testid={`${prefix}.options`}>
          Options{setCount > 0 ? ` (${setCount} set)` : ''}
        </button>
        <label className="field inline" title={hookModule ? 'Run the hook module of the Compact tab (beforeCompact / afterCompact) at each compaction of this replay' : 'Write a hook module in the Compact tab first'}>
          <input type="checkbox" checked={row.hooks === true} onChange={(e) => setHooks(index, e.target.checked)} disabled={!hookModule && row.hooks !== true} data-testid={`${prefix}.hooks`} />
          <span>Hooks</span>
        </label>
        <button type="button" onClick={() => duplicate(index)} disabled={count >= MAX_COMPARE_CONFIGS} data-testid={`${prefix}.duplicate`} aria-label={`Duplicate configuration ${index + 1}`}>
          Duplicate
        </button>
        <button type="button" onClick={() => remove(index)} disabled={count <= 1} data-testid={`${prefix}.remove`} aria-label={`Remove configuration ${index + 1}`}>
          Remove
        </button>
      </div>
      {problem && (
        <p className="error small" role="alert" data-testid={`${prefix}.error`}>
          {problem.message}
        </p>
      )}
      {open && known && (
        <OptionsForm specs={configOptionSpecs(row.strategy)} values={row.values} error={problem} onChange={(name, value) => setOption(index, name, value)} onReset={() => resetOptions(index)} />
      )}
    </li>
  );
}
