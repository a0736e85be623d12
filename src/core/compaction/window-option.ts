/**
 * A strategy with a window option of its own (layered's `contextWindow`, seed 002's
 * `Config.context_window`) follows the window the user chose (the gauge, the CLI's `--window`,
 * a replay's window) unless the option is set explicitly (L7).
 */
import type { Strategy } from './strategy.ts';

export function withUserWindow(strategy: Strategy, options: Record<string, unknown>, window: number): Record<string, unknown> {
  const spec = strategy.options.find((o) => o.name === 'contextWindow');
  if (!spec) return options;
  const set = (key: string | undefined) => key !== undefined && options[key] !== undefined && options[key] !== '';
  if (set('contextWindow') || set(spec.alias)) return options;
  return { ...options, contextWindow: window };
}
