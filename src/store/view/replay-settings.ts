/**
 * The settings a replay is run with and the figures it answers, for the page, light enough for the
 * first screen (a strategy's options live in strategies.ts): how many configurations a compare
 * holds, where a replay starts, the unseen prefix estimate (its presets and what the core says of an
 * entered one), the sentence saying what was sent, and retention over probe outcomes. The CLI reads the same
 * functions from the core, so both give the same numbers.
 */
import { parseUnseenPrefix } from '../../core/replay/unseen-estimate.ts';

export { MAX_COMPARE_CONFIGS } from '../../core/replay/compare-limits.ts';
export { DEFAULT_REPLAY_FROM, REPLAY_FROM, type ReplayFrom } from '../../core/compaction/input-scope.ts';
export { sentSentence } from '../../core/replay/session-prefix.ts';
export { retention } from '../../core/replay/retention.ts';
export { UNSEEN_PREFIX_PRESETS } from '../../core/replay/unseen-estimate.ts';

/** True when `value` is an unseen prefix estimate the worker accepts (and not the default 0). */
export function validEstimate(value: string): boolean {
  if (value.trim() === '') return false;
  try {
    return parseUnseenPrefix(value).tokens > 0;
  } catch {
    return false;
  }
}

/** What the core says of an entered estimate (empty means 0), or why it refuses it (`invalid`). */
export function unseenEstimateNote(value: string): { note: string; invalid: boolean } {
  try {
    return { note: parseUnseenPrefix(value.trim() === '' ? '0' : value).note, invalid: false };
  } catch (error) {
    return { note: (error as Error).message, invalid: true };
  }
}
