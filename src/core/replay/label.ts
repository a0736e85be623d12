/** The name a configuration is shown under: its label, else the strategy id and the options it sets. */
import type { ReplayConfig } from './types.ts';

export function configLabel(config: ReplayConfig): string {
  if (config.label?.trim()) return config.label.trim();
  const set = Object.entries(config.options).filter(([, value]) => value !== undefined && value !== '');
  const name = set.length === 0 ? config.strategy : `${config.strategy} (${set.map(([key, value]) => `${key}=${String(value)}`).join(', ')})`;
  return config.hooks ? `${name} + hooks` : name;
}

/** `id` or `id:k=v,k=v` (the CLI's --strategies items) to a configuration. */
export function parseConfigSpec(spec: string): ReplayConfig {
  const [strategy = '', rest] = splitOnce(spec.trim(), ':');
  if (!strategy) throw new Error(`A strategy configuration is empty in "${spec}": write id or id:key=value,key=value.`);
  const options: Record<string, string> = {};
  if (rest !== undefined && rest.trim() !== '') {
    for (const pair of rest.split(',')) {
      const [key, value] = splitOnce(pair, '=');
      if (!key?.trim() || value === undefined) throw new Error(`Option "${pair}" of "${spec}" is not key=value.`);
      options[key.trim()] = value.trim();
    }
  }
  return { strategy, options };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * The CLI's `--strategies` list: `pi,augment:triggerOnHistorySizeChars=50000,minTailExchanges=2`.
 * Commas separate both configurations and options: an item with `=` and no `:` is one more option of
 * the configuration before it.
 */
export function parseConfigList(text: string): ReplayConfig[] {
  const specs: string[] = [];
  for (const item of text.split(',')) {
    const trimmed = item.trim();
    if (trimmed === '') continue;
    if (trimmed.includes('=') && !trimmed.includes(':') && specs.length > 0) specs[specs.length - 1] += `,${trimmed}`;
    else specs.push(trimmed);
  }
  if (specs.length === 0) throw new Error('No strategy configuration given: --strategies pi,augment:key=value,...');
  return specs.map(parseConfigSpec);
}
