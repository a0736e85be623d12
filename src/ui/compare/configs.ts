/**
 * The configuration rows as the replay needs them: which strategies can be compared, each row's
 * option error (checked on the page as the user types, the worker checks again), and the request's
 * `configs` with the labels the chart and tables will show.
 */
import type { ReplayConfig } from '../../core/replay/types.ts';
import { configLabel, OptionError, parseConfigOptions, REPLAYABLE_IDS } from '../../store/view/strategies.ts';
import type { CompareConfigDraft } from '../../store/compare-slice.ts';

/** Every registered strategy but the custom plugin (the replay refuses it: it needs its own worker per call), and memory folding. */
export const COMPARABLE_STRATEGIES: readonly string[] = REPLAYABLE_IDS;

export interface ConfigProblem {
  /** The option at fault ('' when it is the strategy itself). */
  option: string;
  message: string;
}

export function checkConfig(row: CompareConfigDraft): ConfigProblem | undefined {
  if (!COMPARABLE_STRATEGIES.includes(row.strategy)) return { option: '', message: `The strategy "${row.strategy}" is not available here: pick one of ${COMPARABLE_STRATEGIES.join(', ')}.` };
  try {
    parseConfigOptions({ strategy: row.strategy, options: row.values });
    return undefined;
  } catch (error) {
    return error instanceof OptionError ? { option: error.option, message: error.message } : { option: '', message: error instanceof Error ? error.message : String(error) };
  }
}

export function toReplayConfig(row: CompareConfigDraft): ReplayConfig {
  const label = row.label.trim();
  return { strategy: row.strategy, options: { ...row.values }, ...(label ? { label } : {}), ...(row.hooks ? { hooks: true } : {}) };
}

/** Labels as the replay will name them; a repeated label gets " #2", " #3" so the series stay apart. */
export function uniqueLabels(rows: readonly CompareConfigDraft[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const base = configLabel(toReplayConfig(row));
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} #${n}`;
  });
}

/** The request's configs: a duplicated row without a label of its own gets its numbered label. */
export function requestConfigs(rows: readonly CompareConfigDraft[]): ReplayConfig[] {
  const labels = uniqueLabels(rows);
  return rows.map((row, i) => {
    const config = toReplayConfig(row);
    return labels[i] !== configLabel(config) ? { ...config, label: labels[i]! } : config;
  });
}
