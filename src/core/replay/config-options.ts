/**
 * What a replay configuration may name: every registered strategy but the custom plugin, and
 * memory folding (`folding`, seed 003, replayed by folding-replay.ts). Each one's title, option
 * specs and parser, so the CLI and the Compare tab refuse a bad option before anything is replayed.
 */
import type { OptionSpec } from '../compaction/options.ts';
import { FOLD_OPTIONS, parseFoldOptions, type FoldOptions } from '../folding/options.ts';
import { getStrategy, STRATEGY_IDS } from '../strategies/index.ts';
import { DEFAULT_WINDOW_TOKENS } from '../tokens/windows.ts';
import type { ReplayConfig } from './types.ts';

/** The configuration id of memory folding L0-L4. */
export const FOLDING_CONFIG_ID = 'folding';

export { MAX_COMPARE_CONFIGS } from './compare-limits.ts';

/** Ids a replay accepts, in the order the Compare tab lists them. */
export const REPLAYABLE_IDS: readonly string[] = [...STRATEGY_IDS.filter((id) => id !== 'custom'), FOLDING_CONFIG_ID];

export function isFoldingConfig(config: Pick<ReplayConfig, 'strategy'>): boolean {
  return config.strategy === FOLDING_CONFIG_ID;
}

/** The name a configuration id is listed under. */
export function configTitle(id: string): string {
  return id === FOLDING_CONFIG_ID ? 'Memory folding (L0-L4)' : getStrategy(id).label;
}

/** The options a configuration id takes. */
export function configOptionSpecs(id: string): readonly OptionSpec[] {
  return id === FOLDING_CONFIG_ID ? FOLD_OPTIONS : getStrategy(id).options;
}

/**
 * Folding's raw options for a replay: the fold's window follows the replay's window unless the
 * configuration sets `contextWindow` (or `context_window`) itself; empty values are left unset.
 */
export function foldReplayOptions(options: Record<string, unknown>, contextWindow: number): FoldOptions {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (value !== undefined && value !== '') raw[key] = value;
  const own = raw.contextWindow !== undefined || raw.context_window !== undefined;
  return parseFoldOptions(own ? raw : { ...raw, contextWindow });
}

/** Parses a configuration's options with their owner's parser; throws the parser's error (an `OptionError` names the option). */
export function parseConfigOptions(config: Pick<ReplayConfig, 'strategy' | 'options'>, contextWindow = DEFAULT_WINDOW_TOKENS): Record<string, unknown> {
  if (config.strategy === FOLDING_CONFIG_ID) return foldReplayOptions(config.options, contextWindow) as unknown as Record<string, unknown>;
  if (!(STRATEGY_IDS as readonly string[]).includes(config.strategy)) throw new Error(`Unknown configuration "${config.strategy}": use one of ${REPLAYABLE_IDS.join(', ')}.`);
  return getStrategy(config.strategy).parse(config.options);
}
