/**
 * Claude Code's auto-compact settings as typed options: the two environment variables a user sets
 * (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, CLAUDE_CODE_AUTO_COMPACT_WINDOW), the on/off switch, and the
 * figures Claude Code fixes in its (closed) code, known from its users' measurements and issue
 * threads, exposed so they can be tried at other values.
 */
import { parseOptions, type OptionSpec } from '../../compaction/options.ts';

/** Buffer kept below the effective window (observed: compaction at 167,000 of 200,000 = 200,000 - 20,000 - 13,000). Unit: tokens. */
export const DEFAULT_RESERVE_TOKENS = 13_000;
/** Tokens reserved for the summary's output, taken off the window first (the 33k "Autocompact buffer" of /context is this + 13,000). */
export const DEFAULT_OUTPUT_RESERVE_TOKENS = 20_000;
/** Recently read files re-attached after a compaction: at most this many... */
export const DEFAULT_RESTORE_FILES = 5;
/** ...each cut to this many tokens... */
export const DEFAULT_RESTORE_FILE_TOKENS = 5_000;
/** ...and together at most this many. */
export const DEFAULT_RESTORE_TOKEN_BUDGET = 50_000;

export type ClaudeCodeOptions = {
  /** Auto-compaction on (DISABLE_AUTO_COMPACT unset / autoCompactEnabled). Default true. */
  autoCompact: boolean;
  /** The model's window, tokens; 0 = the session's window. */
  contextWindow: number;
  /** CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: compact at this percent of the effective window, never above the default; 0 = unset. */
  autoCompactPctOverride: number;
  /** CLAUDE_CODE_AUTO_COMPACT_WINDOW: the window compaction is computed on, capped at the model's; 0 = unset. */
  autoCompactWindow: number;
  reserveTokens: number;
  outputReserveTokens: number;
  restoreFiles: number;
  restoreFileTokens: number;
  restoreTokenBudget: number;
};

export const CLAUDE_CODE_OPTIONS: readonly OptionSpec[] = [
  { name: 'autoCompact', alias: 'autoCompactEnabled', type: 'boolean', default: true, description: 'Compact automatically (false: DISABLE_AUTO_COMPACT=1, or autoCompactEnabled false in settings.json).' },
  { name: 'contextWindow', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens', description: 'The model\'s context window (0 = the session\'s window).' },
  {
    name: 'autoCompactPctOverride', alias: 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE', type: 'integer', default: 0, min: 0, max: 100, unit: '%',
    description: 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: compact at this percent of the effective window; it can only lower the threshold (0 = unset).',
  },
  {
    name: 'autoCompactWindow', alias: 'CLAUDE_CODE_AUTO_COMPACT_WINDOW', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'CLAUDE_CODE_AUTO_COMPACT_WINDOW (or autoCompactWindow in settings.json): the window compaction is computed on, at most the model\'s (0 = unset).',
  },
  {
    name: 'reserveTokens', type: 'integer', default: DEFAULT_RESERVE_TOKENS, min: 0, max: 1_000_000, unit: 'tokens',
    description: 'Buffer below the effective window: compact at effective window - this (13,000: not documented, from users\' measurements).',
  },
  {
    name: 'outputReserveTokens', type: 'integer', default: DEFAULT_OUTPUT_RESERVE_TOKENS, min: 0, max: 1_000_000, unit: 'tokens',
    description: 'Tokens kept for the summary\'s output: the effective window is the window minus this (20,000: not documented).',
  },
  { name: 'restoreFiles', type: 'integer', default: DEFAULT_RESTORE_FILES, min: 0, max: 1_000, unit: 'files', description: 'Recently read files re-attached after the summary (5: not documented).' },
  { name: 'restoreFileTokens', type: 'integer', default: DEFAULT_RESTORE_FILE_TOKENS, min: 0, max: 1_000_000, unit: 'tokens', description: 'Each re-attached file cut to this many tokens (5,000: not documented).' },
  { name: 'restoreTokenBudget', type: 'integer', default: DEFAULT_RESTORE_TOKEN_BUDGET, min: 0, max: 10_000_000, unit: 'tokens', description: 'All re-attached files together at most this many tokens (50,000: not documented).' },
];

export function parseClaudeCodeOptions(raw: Record<string, unknown> = {}): ClaudeCodeOptions {
  return parseOptions(CLAUDE_CODE_OPTIONS, raw) as ClaudeCodeOptions;
}

export interface ClaudeCodeThreshold {
  /** The window compaction is computed on. */
  window: number;
  /** `window` minus the output reserve. */
  effective: number;
  /** Effective window minus the buffer: the highest the threshold can be. */
  defaultThreshold: number;
  threshold: number;
  /** The percent override asked for more than the default allows: it was capped. */
  capped: boolean;
  rule: string;
}

/** The auto-compact threshold these options give over a session with `sessionWindow` tokens. */
export function claudeCodeThreshold(options: ClaudeCodeOptions, sessionWindow: number): ClaudeCodeThreshold {
  const model = options.contextWindow > 0 ? options.contextWindow : sessionWindow;
  const window = options.autoCompactWindow > 0 ? Math.min(model, options.autoCompactWindow) : model;
  const effective = Math.max(0, window - options.outputReserveTokens);
  const defaultThreshold = Math.max(0, effective - options.reserveTokens);
  const windowRule = window < model ? `autoCompactWindow ${fmt(window)}` : `window ${fmt(window)}`;
  const base = `${windowRule} - outputReserveTokens ${fmt(options.outputReserveTokens)} - reserveTokens ${fmt(options.reserveTokens)}`;
  if (options.autoCompactPctOverride <= 0) return { window, effective, defaultThreshold, threshold: defaultThreshold, capped: false, rule: base };
  const asked = Math.floor((effective * options.autoCompactPctOverride) / 100);
  const capped = asked > defaultThreshold;
  return {
    window, effective, defaultThreshold, threshold: Math.min(asked, defaultThreshold), capped,
    rule: capped
      ? `autoCompactPctOverride ${options.autoCompactPctOverride}% of ${fmt(effective)} = ${fmt(asked)}, capped at ${base}`
      : `autoCompactPctOverride ${options.autoCompactPctOverride}% of the effective window ${fmt(effective)}`,
  };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
