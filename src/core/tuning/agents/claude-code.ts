/**
 * Claude Code's block: environment variables, as `export` lines for the shell that starts `claude`
 * and as the `env` object of ~/.claude/settings.json. Claude Code compacts at the window (or
 * CLAUDE_CODE_AUTO_COMPACT_WINDOW, capped at the model's window) minus its reserve;
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE sets the threshold as a percentage of that window but, as its
 * documentation says, values above the default threshold have no effect: it can only lower it.
 * The reserve is Claude Code's own; a point that moved it is handed back as the nearest override.
 */
import type { Options } from '../../compaction/strategy.ts';
import type { OptionSpec } from '../../compaction/options.ts';
import { formatNumber } from '../../strategies/format-number.ts';
import type { AgentConfig, AgentConfigBasis } from '../types.ts';
import { basisComments, basisSentence, knownWindow } from '../basis.ts';
import { notSettable } from './facts.ts';

export const PCT_VAR = 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE';
export const WINDOW_VAR = 'CLAUDE_CODE_AUTO_COMPACT_WINDOW';
export const CLAUDE_SETTINGS_FILE = '~/.claude/settings.json';
export const SHELL_FILE = 'your shell profile (~/.bashrc, ~/.zshrc)';

const SETTINGS = ['autoCompactPctOverride', 'autoCompactWindow', 'reserveTokens'];

interface Threshold {
  /** The window compaction is measured against (tokens), when known. */
  window?: number;
  /** Claude Code's own threshold there: window − its default reserve. */
  standard?: number;
}

export function claudeCodeConfig(options: Options, specs: readonly OptionSpec[], basis: AgentConfigBasis): AgentConfig {
  const model = Number(options.contextWindow ?? 0) > 0 ? Number(options.contextWindow) : knownWindow(basis);
  const pct = Number(options.autoCompactPctOverride ?? 0);
  const autoWindow = Number(options.autoCompactWindow ?? 0);
  const defaultReserve = Number(specs.find((spec) => spec.name === 'reserveTokens')?.default ?? 0);
  const reserve = Number(options.reserveTokens ?? defaultReserve);
  const window = autoWindow > 0 ? (model !== undefined ? Math.min(autoWindow, model) : autoWindow) : model;
  const at: Threshold = window === undefined ? {} : { window, standard: window - defaultReserve };

  const vars: Array<[string, number]> = [];
  const notes: string[] = [];
  if (autoWindow > 0) vars.push([WINDOW_VAR, autoWindow]);
  if (autoWindow > 0 && model !== undefined && autoWindow > model) {
    notes.push(`${WINDOW_VAR} is capped at the model's window: ${formatNumber(autoWindow)} counts as ${formatNumber(model)}.`);
  }
  let chosenPct = pct;
  if (reserve !== defaultReserve) {
    const reserveNote = handBackReserve(reserve, defaultReserve, pct, at);
    notes.push(reserveNote.note);
    if (reserveNote.pct !== undefined) chosenPct = reserveNote.pct;
  }
  if (chosenPct > 0) vars.push([PCT_VAR, chosenPct]);
  if (pct > 0 && at.window !== undefined && at.standard !== undefined && reserve >= defaultReserve) {
    const asked = Math.floor((at.window * pct) / 100);
    if (asked > at.standard) {
      notes.push(`${PCT_VAR} can only lower the threshold: ${pct}% of ${formatNumber(at.window)} is ${formatNumber(asked)}, above Claude Code's own ${formatNumber(at.standard)} (the window − its ${formatNumber(defaultReserve)}-token reserve), so Claude Code compacts at ${formatNumber(at.standard)} tokens as it would unset; that is the threshold these numbers were measured at.`);
    }
  } else if (pct > 0 && at.window === undefined) {
    notes.push(`${PCT_VAR} can only lower the threshold: above the window − ${formatNumber(defaultReserve)} tokens it has no effect and Claude Code compacts there.`);
  }
  notes.push(...notSettable('Claude Code', options, specs, SETTINGS));

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
      placement: `Or merge the "env" key into ${CLAUDE_SETTINGS_FILE} (or .claude/settings.json of a project). Some Claude Code versions pass this block only to the commands it runs, not to its own compaction (anthropics/claude-code#63186): if compaction does not move, use the export lines.`,
    },
  };
}

/**
 * A reserve other than Claude Code's: a larger one (an earlier threshold) is the nearest whole
 * percentage at or below it; a smaller one (a later threshold) cannot be set.
 */
function handBackReserve(reserve: number, standardReserve: number, pct: number, at: Threshold): { note: string; pct?: number } {
  const lead = `reserveTokens = ${formatNumber(reserve)} is not a Claude Code setting (its reserve is ${formatNumber(standardReserve)})`;
  if (reserve < standardReserve) {
    const instead = at.standard !== undefined ? ` at ${formatNumber(at.standard)} tokens` : ` at the window − ${formatNumber(standardReserve)}`;
    return { note: `${lead}, and no setting compacts later than Claude Code's own threshold: you get compaction${instead}, earlier than these numbers were measured at.` };
  }
  if (at.window === undefined) {
    return { note: `${lead}: with the window unknown it cannot be turned into ${PCT_VAR}; set the percentage to (window − ${formatNumber(reserve)}) / window.` };
  }
  const wanted = at.window - reserve;
  const pctWanted = Math.max(1, Math.floor((wanted / at.window) * 100));
  const fromPct = pct > 0 ? Math.floor((at.window * pct) / 100) : Number.POSITIVE_INFINITY;
  if (fromPct <= wanted) return { note: `${lead}; ${PCT_VAR}=${pct} already compacts earlier, at ${formatNumber(fromPct)} tokens.` };
  const lands = Math.floor((at.window * pctWanted) / 100);
  return {
    note: `${lead}: ${PCT_VAR}=${pctWanted} stands in for it, compacting at ${formatNumber(lands)} tokens of ${formatNumber(at.window)} (the point's threshold is ${formatNumber(wanted)}).`,
    pct: pctWanted,
  };
}
