/**
 * pi's compaction settings (`compaction` in pi's settings.json) as typed, validated options, with
 * pi's defaults. Summary length budgets derive from reserveTokens as pi derives them.
 */
import { parseOptions, type OptionSpec } from '../../compaction/options.ts';

/** Auto-compaction on or off. Default true. Manual compaction (a plan you ask for) works either way. */
export const DEFAULT_ENABLED = true;
/** Tokens kept free below the context window for the reply and the summary. Default 16,384. Unit: tokens. */
export const DEFAULT_RESERVE_TOKENS = 16_384;
/** Newest tokens kept verbatim after the summary. Default 20,000. Unit: tokens. */
export const DEFAULT_KEEP_RECENT_TOKENS = 20_000;

/** How the strategy counts tokens. Default 'counter': the counter the user chose (exact o200k by default). */
export const DEFAULT_TOKEN_COUNT = 'counter';

/** Share of reserveTokens a history summary may use (pi: 0.8). */
export const HISTORY_SUMMARY_SHARE = 0.8;
/** Share of reserveTokens a turn-prefix summary may use (pi: 0.5, a smaller budget). */
export const TURN_PREFIX_SUMMARY_SHARE = 0.5;

export type PiOptions = {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  customInstructions: string;
  /** 'counter': the chosen counter; 'pi-estimate': chars/4 per message with images at 1,200, as pi estimates (pi/estimate.ts). */
  tokenCount: 'counter' | 'pi-estimate';
};

export const PI_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'enabled',
    type: 'boolean',
    default: DEFAULT_ENABLED,
    description: 'Compact automatically at the end of a run when the context nears the window.',
  },
  {
    name: 'reserveTokens',
    type: 'integer',
    default: DEFAULT_RESERVE_TOKENS,
    min: 256,
    max: 1_000_000,
    unit: 'tokens',
    description: 'Compact when contextTokens > contextWindow - reserveTokens; the summary may use 80% of it.',
  },
  {
    name: 'keepRecentTokens',
    type: 'integer',
    default: DEFAULT_KEEP_RECENT_TOKENS,
    min: 0,
    max: 10_000_000,
    unit: 'tokens',
    description: 'Newest tokens kept verbatim: counted newest-first until the total reaches this.',
  },
  {
    name: 'customInstructions',
    type: 'text',
    default: '',
    description: 'Extra focus for the summary (pi: /compact <instructions>), added as "Additional focus".',
  },
  {
    name: 'tokenCount',
    type: 'enum',
    default: DEFAULT_TOKEN_COUNT,
    values: ['counter', 'pi-estimate'],
    description: 'counter: count with the counter you chose; pi-estimate: estimate as pi does (chars/4 per message, images 1,200).',
  },
];

/** Raw values (UI strings, CLI k=v) to typed options; an unknown name or a value out of range throws OptionError. */
export function parsePiOptions(raw: Record<string, unknown> = {}): PiOptions {
  return parseOptions(PI_OPTIONS, raw) as PiOptions;
}

/** Upper bound of the history summary, tokens. */
export function historySummaryTokens(options: PiOptions): number {
  return Math.floor(HISTORY_SUMMARY_SHARE * options.reserveTokens);
}

/** Upper bound of the turn-prefix summary, tokens. */
export function turnPrefixSummaryTokens(options: PiOptions): number {
  return Math.floor(TURN_PREFIX_SUMMARY_SHARE * options.reserveTokens);
}

/** 183402 -> "183,402", independent of the runtime's locale so plans are the same everywhere. */
export function groupDigits(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + Math.abs(Math.round(n)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
