/**
 * opencode's block: the `compaction` object of opencode.json (`auto`, `prune`, `reserved`; opencode's
 * config schema). opencode merges the global ~/.config/opencode/opencode.json with the project's
 * opencode.json key by key, so the block can be merged into either. The window is the model's
 * (`limit.context` of the provider's model entry), not a compaction key.
 */
import type { Options } from '../../compaction/strategy.ts';
import type { OptionSpec } from '../../compaction/options.ts';
import { formatNumber } from '../../strategies/format-number.ts';
import type { AgentConfig, AgentConfigBasis } from '../types.ts';
import { basisSentence } from '../basis.ts';
import { notSettable } from './facts.ts';

export const OPENCODE_CONFIG_FILE = '~/.config/opencode/opencode.json';

const SETTINGS = ['auto', 'prune', 'reserved'];

/** opencode's session/overflow.ts: the reserve is taken off the model's input limit; without one, the output limit is. */
export const RESERVED_SCOPE = 'opencode applies compaction.reserved to models whose entry gives an input limit (limit.input); for a model with only a context limit it keeps the model\'s output limit free instead, whatever reserved says.';

export function opencodeConfig(options: Options, specs: readonly OptionSpec[], basis: AgentConfigBasis): AgentConfig {
  const compaction = { auto: Boolean(options.auto), prune: Boolean(options.prune), reserved: Number(options.reserved) };
  const notes = notSettable('opencode', options, specs, SETTINGS);
  if (compaction.auto) notes.unshift(RESERVED_SCOPE);
  const window = Number(options.contextWindow ?? 0);
  const windowNote = window > 0
    ? ` The point assumes a ${formatNumber(window)}-token window: opencode takes it from the model (for a custom provider, limit.context of its model entry).`
    : '';
  return {
    agent: 'opencode',
    file: OPENCODE_CONFIG_FILE,
    format: 'json',
    text: JSON.stringify({ compaction }, null, 2),
    placement: `Merge the "compaction" key into ${OPENCODE_CONFIG_FILE} (every project) or opencode.json at a project's root (it overrides the global file key by key). Keys you leave out keep opencode's defaults.${windowNote}`,
    basis: basisSentence(basis),
    ...(notes.length ? { limitation: notes.join(' ') } : {}),
  };
}
