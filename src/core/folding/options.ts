/**
 * The folding options with the seed's defaults (seed 003): distance thresholds of the five levels,
 * trigger ratios and the adaptive folding frequency, importance weights, recall bar and fade,
 * partition shares of the window, and block sizes. Raw CLI/UI strings go through `parseFoldOptions`.
 */
import { OptionError, parseOptions, type OptionSpec } from '../compaction/options.ts';
import { DEFAULT_WINDOW_TOKENS } from '../tokens/windows.ts';

export interface FoldOptions {
  contextWindow: number;
  l0Distance: number;
  l1Distance: number;
  l2Distance: number;
  l3Distance: number;
  pressureRatio: number;
  criticalRatio: number;
  lowRatio: number;
  adaptive: boolean;
  everyLow: number;
  everyMedium: number;
  everyHigh: number;
  semantic: boolean;
  weightRecency: number;
  weightAccess: number;
  weightError: number;
  weightState: number;
  stateScale: number;
  recallImportance: number;
  fadeAfter: number;
  staticShare: number;
  workingShare: number;
  shortTermShare: number;
  longTermShare: number;
  retrievedShare: number;
  dynamicShare: number;
  l1Chunk: number;
  l2Chunk: number;
  l3Chunk: number;
  l4Chunk: number;
  keyMoments: boolean;
  bigStateChange: number;
  touchNear: number;
  recallNear: boolean;
  /** Iterations the user bookmarked (F9): they stay at L0. */
  bookmarks: number[];
}

const ratio = { type: 'number' as const, min: 0, max: 1 };
const iters = { type: 'integer' as const, min: 1, max: 1_000_000, unit: 'iterations' };

/** Every option; `bookmarks` is a comma-separated list of iteration numbers. */
export const FOLD_OPTIONS: readonly OptionSpec[] = [
  { name: 'contextWindow', alias: 'context_window', type: 'integer', default: DEFAULT_WINDOW_TOKENS, min: 1000, max: 10_000_000, unit: 'tokens', description: 'Window the pressure and the partition budgets are measured against.' },
  { name: 'l0Distance', ...iters, default: 5, description: 'Up to this distance an iteration stays L0 (full); the seed: iter 95-100 of 100.' },
  { name: 'l1Distance', ...iters, default: 20, description: 'Up to this distance: L1, redundant outputs elided (seed: iter 80-95).' },
  { name: 'l2Distance', ...iters, default: 50, description: 'Up to this distance: L2, summary + key actions (seed: iter 50-80).' },
  { name: 'l3Distance', ...iters, default: 80, description: 'Up to this distance: L3, chapter index; beyond it L4, one line (seed: iter 20-50 / 1-20).' },
  { name: 'pressureRatio', alias: 'pressure_ratio', ...ratio, default: 0.8, description: 'Emergency fold when the context rises above this share of the window; while it stays above, folds run every everyHigh iterations.' },
  { name: 'criticalRatio', alias: 'critical_ratio', ...ratio, default: 0.9, description: 'Above this share the oldest L1 content is folded at once.' },
  { name: 'lowRatio', alias: 'low_ratio', ...ratio, default: 0.5, description: 'Below this share the pressure is low (fold every everyLow iterations).' },
  { name: 'adaptive', type: 'boolean', default: true, description: 'Adapt the periodic folding frequency to the pressure; off: fold every everyMedium iterations.' },
  { name: 'everyLow', alias: 'every_low', ...iters, default: 50, description: 'Periodic fold interval under low pressure (< 50%).' },
  { name: 'everyMedium', alias: 'every_medium', ...iters, default: 20, description: 'Periodic fold interval under medium pressure (50-80%); the fixed interval when not adaptive.' },
  { name: 'everyHigh', alias: 'every_high', ...iters, default: 5, description: 'Periodic fold interval under high pressure (> 80%).' },
  { name: 'semantic', type: 'boolean', default: true, description: 'Fold when the model says a phase is completed (or marks every todo done).' },
  { name: 'weightRecency', ...ratio, default: 0.3, description: 'Importance weight of recency.' },
  { name: 'weightAccess', ...ratio, default: 0.3, description: 'Importance weight of access frequency (recalls).' },
  { name: 'weightError', ...ratio, default: 0.2, description: 'Importance weight of error presence.' },
  { name: 'weightState', ...ratio, default: 0.2, description: 'Importance weight of state change magnitude.' },
  { name: 'stateScale', type: 'integer', min: 1, max: 10_000, unit: 'files', default: 5, description: 'Files changed that count as a full state change (magnitude 1). Not in the seed.' },
  { name: 'recallImportance', alias: 'recall_importance', ...ratio, default: 0.7, description: 'Implicit recall only of blocks above this importance.' },
  { name: 'fadeAfter', alias: 'fade_after', ...iters, default: 10, description: 'Recalled content fades after this many iterations without a new mention (seed: 5-10).' },
  { name: 'staticShare', ...ratio, default: 0.1, description: 'Static zone budget (system prompt, task), share of the window.' },
  { name: 'workingShare', ...ratio, default: 0.3, description: 'Working memory budget (L0), share of the window.' },
  { name: 'shortTermShare', ...ratio, default: 0.2, description: 'Short-term memory budget (L1), share of the window.' },
  { name: 'longTermShare', ...ratio, default: 0.2, description: 'Long-term memory budget (L2-L4), share of the window.' },
  { name: 'retrievedShare', ...ratio, default: 0.1, description: 'Retrieved memory budget (recalled blocks), share of the window.' },
  { name: 'dynamicShare', ...ratio, default: 0.1, description: 'Dynamic slots budget (file list, error digest), share of the window.' },
  { name: 'l1Chunk', ...iters, default: 5, description: 'Iterations per L1 block: working memory folds its oldest 3-5 iterations at a time.' },
  { name: 'l2Chunk', ...iters, default: 10, description: 'Iterations per L2 summary (the seed summarizes 5-10 iterations).' },
  { name: 'l3Chunk', ...iters, default: 50, description: 'Iterations per L3 chapter (the seed: 20-50).' },
  { name: 'l4Chunk', ...iters, default: 100, description: 'Iterations per L4 phase line at most (the seed aggregates 1-100); phases also end where the model said so.' },
  { name: 'keyMoments', alias: 'key_moments', type: 'boolean', default: true, description: 'Keep key moments (first success, errors, big state changes, bookmarks) at L0.' },
  { name: 'bigStateChange', type: 'integer', min: 1, max: 10_000, unit: 'files', default: 3, description: 'Files changed in one iteration that make it a key moment. Not in the seed.' },
  { name: 'touchNear', alias: 'touch_near', type: 'integer', min: 0, max: 1000, unit: 'iterations', default: 3, description: 'When a file is touched again, up to this many of the latest earlier iterations that touched it and are folded to L2-L4 come one level nearer (never nearer than L1); 0: off. Not in the seed.' },
  { name: 'recallNear', alias: 'recall_near', type: 'boolean', default: true, description: 'A recalled block\'s iterations come one level nearer (never nearer than L2: its content is in the retrieved zone meanwhile).' },
  { name: 'bookmarks', type: 'string', default: '', description: 'Bookmarked iterations, comma-separated (they stay L0).' },
];

export const DEFAULT_FOLD_OPTIONS: Readonly<FoldOptions> = parseFoldOptions({});

function parseBookmarks(text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n < 0) throw new OptionError('bookmarks', `Option bookmarks must list iteration numbers separated by commas; got "${part}".`);
    return n;
  });
}

/** Options from raw values (CLI strings or typed values); unknown names and bad values are refused. */
export function parseFoldOptions(raw: Record<string, unknown> = {}): FoldOptions {
  const { bookmarks, ...rest } = raw;
  const parsed = parseOptions(FOLD_OPTIONS, { ...rest, ...(typeof bookmarks === 'string' ? { bookmarks } : {}) }) as unknown as Omit<FoldOptions, 'bookmarks'> & { bookmarks: string };
  const marks = Array.isArray(bookmarks) ? bookmarks.map(Number) : parseBookmarks(parsed.bookmarks);
  const options: FoldOptions = { ...parsed, bookmarks: marks };
  const d = [options.l0Distance, options.l1Distance, options.l2Distance, options.l3Distance];
  for (let i = 1; i < d.length; i++) {
    if (d[i]! < d[i - 1]!) throw new OptionError('l' + i + 'Distance', `Distance thresholds must not decrease (l0Distance <= l1Distance <= l2Distance <= l3Distance); got ${d.join(', ')}.`);
  }
  return options;
}
