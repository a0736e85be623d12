/**
 * Codex CLI's block: the top-level keys `model_context_window` and `model_auto_compact_token_limit`
 * of ~/.codex/config.toml (codex-rs ConfigToml; a `[profiles.<name>]` table does not take them).
 * Unset, the window is the model's and the limit 90% of it; a limit above 90% of the window is
 * capped there (codex-rs ModelInfo::auto_compact_token_limit). Options that are facts of Codex's
 * compaction rather than settings (e.g. the token cap on carried user messages) cannot be handed
 * back: a value other than the fact's is named as a limitation.
 */
import type { Options } from '../../compaction/strategy.ts';
import type { OptionSpec } from '../../compaction/options.ts';
import { formatNumber } from '../../strategies/format-number.ts';
import type { AgentConfig, AgentConfigBasis } from '../types.ts';
import { basisComments, basisSentence, knownWindow } from '../basis.ts';
import { notSettable } from './facts.ts';

export const CODEX_CONFIG_FILE = '~/.codex/config.toml';
/** Codex's default and cap for the auto-compact limit: 90% of the window. */
export const CODEX_LIMIT_SHARE = 0.9;

const SETTINGS = ['modelContextWindow', 'modelAutoCompactTokenLimit'];

export function codexConfig(options: Options, specs: readonly OptionSpec[], basis: AgentConfigBasis): AgentConfig {
  const window = Number(options.modelContextWindow ?? 0);
  const limit = Number(options.modelAutoCompactTokenLimit ?? 0);
  const lines = basisComments(basis);
  lines.push(`# Top-level keys: put them above the first [table] of ${CODEX_CONFIG_FILE}.`);
  if (window > 0) lines.push(`model_context_window = ${window}`);
  if (limit > 0) lines.push(`model_auto_compact_token_limit = ${limit}`);
  if (window <= 0 && limit <= 0) lines.push(`# Codex's own window and limit (90% of the window) were best: leave both keys unset.`);

  const notes: string[] = [];
  const effectiveWindow = window > 0 ? window : knownWindow(basis);
  if (limit > 0 && effectiveWindow !== undefined) {
    const cap = Math.floor(effectiveWindow * CODEX_LIMIT_SHARE);
    if (limit > cap) {
      notes.push(`Codex caps model_auto_compact_token_limit at 90% of the window: with a ${formatNumber(effectiveWindow)}-token window it compacts at ${formatNumber(cap)} tokens, not ${formatNumber(limit)}.`);
    }
  }
  notes.push(...notSettable('Codex', options, specs, SETTINGS));
  return {
    agent: 'codex',
    file: CODEX_CONFIG_FILE,
    format: 'toml',
    text: lines.join('\n'),
    placement: `Top-level keys of ${CODEX_CONFIG_FILE} (or .codex/config.toml of a trusted project), above its first [table]; profiles do not take them. A key left out keeps Codex's default.`,
    basis: basisSentence(basis),
    ...(notes.length ? { limitation: notes.join(' ') } : {}),
  };
}
