/**
 * opencode's compaction settings (`compaction` in opencode.json) as typed options with its
 * defaults, and the figures its code fixes (pruning's protect and minimum, the output cap, the
 * recent-tail budget), exposed so they can be tried at other values.
 */
import { parseOptions, type OptionSpec } from '../../compaction/options.ts';

/** opencode's cap on a request's output tokens (OUTPUT_TOKEN_MAX), taken off the window. Unit: tokens. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;
/** COMPACTION_BUFFER: the default of compaction.reserved is min(this, the output cap). Unit: tokens. */
export const COMPACTION_BUFFER = 20_000;
/** PRUNE_PROTECT: the newest tool outputs kept whole, by opencode's chars/4 estimate. */
export const DEFAULT_PRUNE_PROTECT = 40_000;
/** PRUNE_MINIMUM: pruning happens only when it frees more than this. */
export const DEFAULT_PRUNE_MINIMUM = 20_000;
/** compaction.tail_turns: recent user turns kept verbatim after the summary. */
export const DEFAULT_TAIL_TURNS = 2;

export type OpencodeOptions = {
  auto: boolean;
  reserved: number;
  prune: boolean;
  contextWindow: number;
  maxOutputTokens: number;
  tailTurns: number;
  preserveRecentTokens: number;
  pruneProtectTokens: number;
  pruneMinimumTokens: number;
};

export const OPENCODE_OPTIONS: readonly OptionSpec[] = [
  { name: 'auto', type: 'boolean', default: true, description: 'compaction.auto: compact when the context overflows its usable part.' },
  {
    name: 'reserved', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'compaction.reserved: tokens kept free below the usable window (0 = opencode\'s default, min(20,000, maxOutputTokens)).',
  },
  { name: 'prune', type: 'boolean', default: true, description: 'compaction.prune: clear the output of old tool calls once a turn ends.' },
  { name: 'contextWindow', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens', description: 'The model\'s context limit (0 = the session\'s window).' },
  {
    name: 'maxOutputTokens', type: 'integer', default: DEFAULT_MAX_OUTPUT_TOKENS, min: 0, max: 1_000_000, unit: 'tokens',
    description: 'The model\'s output limit as opencode caps it (32,000), taken off the window; the session does not record it.',
  },
  { name: 'tailTurns', alias: 'tail_turns', type: 'integer', default: DEFAULT_TAIL_TURNS, min: 0, max: 1_000, unit: 'turns', description: 'compaction.tail_turns: recent user turns kept verbatim after the summary (0 = none).' },
  {
    name: 'preserveRecentTokens', alias: 'preserve_recent_tokens', type: 'integer', default: 0, min: 0, max: 10_000_000, unit: 'tokens',
    description: 'compaction.preserve_recent_tokens: budget of that tail (0 = opencode\'s default, 25% of the usable window within 2,000..15,000).',
  },
  { name: 'pruneProtectTokens', type: 'integer', default: DEFAULT_PRUNE_PROTECT, min: 0, max: 10_000_000, unit: 'tokens', description: 'Newest tool outputs never pruned (PRUNE_PROTECT, 40,000, fixed in opencode).' },
  { name: 'pruneMinimumTokens', type: 'integer', default: DEFAULT_PRUNE_MINIMUM, min: 0, max: 10_000_000, unit: 'tokens', description: 'Prune only when it frees more than this (PRUNE_MINIMUM, 20,000, fixed in opencode).' },
];

export function parseOpencodeOptions(raw: Record<string, unknown> = {}): OpencodeOptions {
  return parseOptions(OPENCODE_OPTIONS, raw) as OpencodeOptions;
}

export interface OpencodeLimits {
  window: number;
  reserved: number;
  /** window - maxOutputTokens - reserved: the context overflows at this. */
  usable: number;
  /** The recent tail's budget. */
  tailBudget: number;
}

export function opencodeLimits(options: OpencodeOptions, sessionWindow: number): OpencodeLimits {
  const window = options.contextWindow > 0 ? options.contextWindow : sessionWindow;
  const reserved = options.reserved > 0 ? options.reserved : Math.min(COMPACTION_BUFFER, options.maxOutputTokens);
  const usable = Math.max(0, window - options.maxOutputTokens - reserved);
  const tailBudget = options.preserveRecentTokens > 0 ? options.preserveRecentTokens : Math.min(15_000, Math.max(2_000, Math.floor(usable * 0.25)));
  return { window, reserved, usable, tailBudget };
}
