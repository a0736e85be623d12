/**
 * Claude Code's block: environment variables, as `export` lines for the shell that starts `claude`
 * and as the `env` object of ~/.claude/settings.json. The threshold is the strategy's own
 * (`claudeCodeThreshold`: the window, or CLAUDE_CODE_AUTO_COMPACT_WINDOW capped at the model's,
 * less the output reserve and the buffer); CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can only lower it, as
 * Claude Code's documentation says. The reserves are Claude Code's own figures, not settings: a
 * point that moved them to an earlier threshold is handed back as the nearest percentage at or
 * below it, one that moved them to a later threshold as a limitation.
 */
import type { Options } from '../../compaction/strategy.ts';
import type { OptionSpec } from '../../compaction/options.ts';
import { claudeCodeThreshold, parseClaudeCodeOptions, type ClaudeCodeOptions } from '../../strategies/claude-code/options.ts';
import { formatNumber } from '../../strategies/format-number.ts';
import type { AgentConfig, AgentConfigBasis } from '../types.ts';
import { basisComments, basisSentence, knownWindow } from '../basis.ts';
import { notSettable } from './facts.ts';

export const PCT_VAR = 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE';
export const WINDOW_VAR = 'CLAUDE_CODE_AUTO_COMPACT_WINDOW';
export const DISABLE_VAR = 'DISABLE_AUTO_COMPACT';
export const CLAUDE_SETTINGS_FILE = '~/.claude/settings.json';
export const SHELL_FILE = 'your shell profile (~/.bashrc, ~/.zshrc)';

/** Options the block sets, and Claude Code's fixed figures it turns into the percentage when it can. */
const SETTINGS = ['autoCompact', 'autoCompactPctOverride', 'autoCompactWindow'];
const RESERVES = ['reserveTokens', 'outputReserveTokens'] as const;

export function claudeCodeConfig(options: Options, specs: readonly OptionSpec[], basis: AgentConfigBasis): AgentConfig {
  const point = parseClaudeCodeOptions(options);
  const own = parseClaudeCodeOptions({ ...point, reserveTokens: undefined, outputReserveTokens: undefined });
  const model = point.contextWindow > 0 ? point.contextWindow : knownWindow(basis);
  const vars: Array<[string, number]> = [];
  const notes: string[] = [];
  if (!point.autoCompact) vars.push([DISABLE_VAR, 1]);
  if (point.autoCompactWindow > 0) vars.push([WINDOW_VAR, point.autoCompactWindow]);
  if (point.autoCompactWindow > 0 && model !== undefined && point.autoCompactWindow > model) {
    notes.push(`${WINDOW_VAR} is capped at the model's window: ${formatNumber(point.autoCompactWindow)} counts as ${formatNumber(model)}.`);
  }
  const moved = RESERVES.some((name) => point[name] !== own[name]);
  let pct = point.autoCompactPctOverride;
  if (point.autoCompact && moved) {
    const handed = handBackReserves(point, own, model);
    notes.push(handed.note);
    if (handed.pct !== undefined) pct = handed.pct;
  }
  if (pct > 0) vars.push([PCT_VAR, pct]);
  if (point.autoCompact && !moved && point.autoCompactPctOverride > 0) notes.push(...overrideLimit(point, model));
  notes.push(...notSettable('Claude Code', options, specs, [...SETTINGS, ...RESERVES]));

  const lines = basisComments(basis);
  if (vars.length === 0) lines.push(`# Claude Code's own threshold was best: set neither ${PCT_VAR} nor ${WINDOW_VAR}.`);
  for (const [name, value] of vars) lines.push(`export ${name}=${value}`);
  const env = Object.fromEntries(vars.map(([name, value]) => [name, String(value)]));
  return {
    agent: 'claude-code',
    file: SHELL_FILE,
    format: 'env',
    text: lines.join('\n'),
    placement: `Add the export lines to ${SHELL_FILE}, or run them before starting claude; a variable left unset keeps Claude Code's default.`,
    basis: basisSentence(basis),
    ...(notes.length ? { limitation: notes.join(' ') } : {}),
    alternative: {
      file: CLAUDE_SETTINGS_FILE,
      format: 'json',
      text: JSON.stringify({ env }, null, 2),
      placement: `Or merge the "env" key into ${CLAUDE_SETTINGS_FILE} (or .claude/settings.json of a project). Some Claude Code versions pass this block only to the commands they run, not to their own compaction (anthropics/claude-code#63186): if compaction does not move, use the export lines.`,
    },
  };
}

/** The override asked for more than Claude Code's own threshold: what the user gets instead. */
function overrideLimit(point: ClaudeCodeOptions, model: number | undefined): string[] {
  const lead = `${PCT_VAR} can only lower the threshold`;
  if (model === undefined) {
    return [`${lead}: above the window − ${formatNumber(point.outputReserveTokens + point.reserveTokens)} tokens it has no effect, and Claude Code compacts there.`];
  }
  const at = claudeCodeThreshold(point, model);
  if (!at.capped) return [];
  const asked = Math.floor((at.effective * point.autoCompactPctOverride) / 100);
  return [`${lead}: ${point.autoCompactPctOverride}% of the effective window ${formatNumber(at.effective)} is ${formatNumber(asked)}, above Claude Code's own ${formatNumber(at.defaultThreshold)} (${at.rule.replace(/^.*capped at /, '')}), so Claude Code compacts at ${formatNumber(at.threshold)} tokens as it would with the variable unset; that is the threshold these numbers were measured at.`];
}

/**
 * Reserves other than Claude Code's: a threshold earlier than its own is the nearest whole
 * percentage at or below it; a later one cannot be set.
 */
function handBackReserves(point: ClaudeCodeOptions, own: ClaudeCodeOptions, model: number | undefined): { note: string; pct?: number } {
  const changed = RESERVES.filter((name) => point[name] !== own[name]).map((name) => `${name} = ${formatNumber(point[name])} (Claude Code: ${formatNumber(own[name])})`);
  const lead = `${changed.join(' and ')} ${changed.length === 1 ? 'is not one' : 'are not'} of Claude Code's settings`;
  if (model === undefined) {
    return { note: `${lead}: with the window unknown it cannot be turned into ${PCT_VAR}, so Claude Code compacts at its own threshold.` };
  }
  const wanted = claudeCodeThreshold(point, model).threshold;
  const standard = claudeCodeThreshold(own, model);
  if (wanted >= standard.threshold) {
    const later = wanted > standard.threshold ? `, and no setting compacts later than Claude Code's own threshold` : '';
    return { note: `${lead}${later}: you get compaction at ${formatNumber(standard.threshold)} tokens${wanted > standard.threshold ? `, not ${formatNumber(wanted)}` : ''}.` };
  }
  // The largest whole percentage whose threshold is not above the point's.
  let pct = Math.max(1, Math.floor((wanted / Math.max(1, standard.effective)) * 100));
  while (pct > 1 && claudeCodeThreshold({ ...own, autoCompactPctOverride: pct }, model).threshold > wanted) pct--;
  const lands = claudeCodeThreshold({ ...own, autoCompactPctOverride: pct }, model).threshold;
  return { note: `${lead}: ${PCT_VAR}=${pct} stands in for them, compacting at ${formatNumber(lands)} tokens (the point's threshold is ${formatNumber(wanted)}).`, pct };
}
