/**
 * opencode's block: the `compaction` object of opencode.json (`auto`, `prune`, and `reserved`,
 * `tail_turns`, `preserve_recent_tokens` when the point moved them from opencode's defaults), read
 * as the `opencode` strategy reads its options. opencode merges the global
 * ~/.config/opencode/opencode.json with a project's opencode.json key by key, so the block can be
 * merged into either. The window and the output cap are the model's (`limit.context`,
 * `limit.output` of a provider's model entry), not compaction keys; pruning's figures are fixed.
 */
import type { Options } from '../../compaction/strategy.ts';
import type { OptionSpec } from '../../compaction/options.ts';
import { parseOpencodeOptions } from '../../strategies/opencode/options.ts';
import { formatNumber } from '../../strategies/format-number.ts';
import type { AgentConfig, AgentConfigBasis } from '../types.ts';
import { basisSentence } from '../basis.ts';
import { notSettable } from './facts.ts';

export const OPENCODE_CONFIG_FILE = '~/.config/opencode/opencode.json';

/** Options the block sets, and the model's own figures (named, never set here). */
const SETTINGS = ['auto', 'prune', 'reserved', 'tailTurns', 'preserveRecentTokens'];
const MODEL = ['contextWindow', 'maxOutputTokens'];

export function opencodeConfig(options: Options, specs: readonly OptionSpec[], basis: AgentConfigBasis): AgentConfig {
  const point = parseOpencodeOptions(options);
  const own = parseOpencodeOptions();
  const compaction: Record<string, boolean | number> = { auto: point.auto, prune: point.prune };
  if (point.reserved > 0) compaction.reserved = point.reserved;
  if (point.tailTurns !== own.tailTurns) compaction.tail_turns = point.tailTurns;
  if (point.preserveRecentTokens > 0) compaction.preserve_recent_tokens = point.preserveRecentTokens;

  const notes: string[] = [];
  const model: string[] = [];
  if (point.contextWindow > 0) model.push(`a ${formatNumber(point.contextWindow)}-token window (limit.context)`);
  if (point.maxOutputTokens !== own.maxOutputTokens) model.push(`an output cap of ${formatNumber(point.maxOutputTokens)} tokens (limit.output; opencode's own cap is ${formatNumber(own.maxOutputTokens)})`);
  if (model.length) notes.push(`The point assumes ${model.join(' and ')}: these are the model's, not compaction keys; for a custom provider they are set on its model entry.`);
  notes.push(...notSettable('opencode', options, specs, [...SETTINGS, ...MODEL]));
  return {
    agent: 'opencode',
    file: OPENCODE_CONFIG_FILE,
    format: 'json',
    text: JSON.stringify({ compaction }, null, 2),
    placement: `Merge the "compaction" key into ${OPENCODE_CONFIG_FILE} (every project) or opencode.json at a project's root (it overrides the global file key by key). Keys you leave out keep opencode's defaults.`,
    basis: basisSentence(basis),
    ...(notes.length ? { limitation: notes.join(' ') } : {}),
  };
}
