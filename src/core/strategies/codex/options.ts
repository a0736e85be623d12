/**
 * Codex CLI's compaction settings as typed options, with its defaults: the two `config.toml` keys
 * a user sets (`model_context_window`, `model_auto_compact_token_limit`) and the fixed cap on the
 * user messages carried past a compaction, exposed so it can be tried at other values.
 */
import { parseOptions, type OptionSpec } from '../../compaction/options.ts';

/** Codex derives the auto-compact limit as 90% of the context window when none is configured. */
export const DEFAULT_LIMIT_SHARE = 0.9;
/** Codex's cap on the user messages carried into the compacted history (COMPACT_USER_MESSAGE_MAX_TOKENS). Unit: tokens. */
export const DEFAULT_USER_MESSAGE_TOKEN_CAP = 20_000;
/** Codex estimates tokens as UTF-8 bytes / 4, rounded up (approx_token_count). */
export const CODEX_BYTES_PER_TOKEN = 4;

export type CodexOptions = {
  /** `model_context_window`: the window Codex assumes, tokens; 0 = the session's window. */
  modelContextWindow: number;
  /** `model_auto_compact_token_limit`: compact when the context reaches this, tokens; 0 = 90% of the window. */
  modelAutoCompactTokenLimit: number;
  /** Newest user messages carried past the summary, up to this many tokens (Codex's estimate). Default 20,000. */
  userMessageTokenCap: number;
};

export const CODEX_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'modelContextWindow', alias: 'model_context_window', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'config.toml model_context_window: the window Codex assumes (0 = the session\'s window).',
  },
  {
    name: 'modelAutoCompactTokenLimit', alias: 'model_auto_compact_token_limit', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'config.toml model_auto_compact_token_limit: compact when the context reaches this (0 = Codex\'s default, 90% of the window).',
  },
  {
    name: 'userMessageTokenCap', alias: 'compact_user_message_max_tokens', type: 'integer', default: DEFAULT_USER_MESSAGE_TOKEN_CAP, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'Newest user messages carried past the summary, up to this many tokens (fixed at 20,000 in Codex; the one that crosses it is truncated).',
  },
];

export function parseCodexOptions(raw: Record<string, unknown> = {}): CodexOptions {
  return parseOptions(CODEX_OPTIONS, raw) as CodexOptions;
}

/** The window and the auto-compact limit these options give over a session with `sessionWindow` tokens. */
export function codexLimits(options: CodexOptions, sessionWindow: number): { window: number; limit: number; derived: boolean } {
  const window = options.modelContextWindow > 0 ? options.modelContextWindow : sessionWindow;
  if (options.modelAutoCompactTokenLimit > 0) return { window, limit: options.modelAutoCompactTokenLimit, derived: false };
  return { window, limit: Math.floor(window * DEFAULT_LIMIT_SHARE), derived: true };
}
