/** The token-counting layer: counters, per-entry counts, prefix sums over them, and a count cache. */
export {
  COUNTER_IDS,
  COUNTER_LABELS,
  IMAGE_TOKENS,
  MERGE_CACHE_LIMIT,
  codePointLength,
  getCounter,
  getEstimator,
  isExactCounterId,
  parseCounterId,
  type CounterId,
  type EstimatorId,
  type ExactCounterId,
  type TokenCounter,
} from './counters.ts';
export {
  PROGRESS_EVERY,
  countEntries,
  countEntry,
  emptyByKind,
  emptyByRole,
  tallyEntries,
  type EntriesTokens,
  type EntryTokens,
  type ProgressFn,
} from './entry-tokens.ts';
export { TokenIndex } from './prefix-sums.ts';
export { TokenCache } from './cache.ts';
