/**
 * The one unseen prefix of a replay's or a plan's input, for the CLI and the page alike: what the
 * recorded usage gives (recorded-usage.ts), or the estimate the user entered (unseen-estimate.ts),
 * and the sentence that shows a context size as sent ("N sent = T in the transcript + P not in it:
 * ...") in the plan view, the gauge and Compare.
 */
import { recordedCalls, unseenPrefixOf, type UnseenPrefix } from './recorded-usage.ts';
import { chooseUnseenPrefix, parseUnseenPrefix } from './unseen-estimate.ts';
import { TokenIndex } from '../tokens/prefix-sums.ts';
import type { Entry } from '../journal/entry.ts';

/**
 * The input's unseen prefix. `entered` is the user's estimate (tokens or a preset id); with
 * `use: 'override'` (the CLI's --unseen-prefix) it replaces the recorded figure, with 'fallback'
 * (the page's setting) it applies only where no call recorded usage. Throws UnseenPrefixError on a
 * malformed entry.
 */
export function sessionUnseenPrefix(
  input: { entries: readonly Entry[]; tokens: TokenIndex },
  firstCall: number,
  entered?: string,
  use: 'override' | 'fallback' = 'override',
): UnseenPrefix {
  const recorded = unseenPrefixOf(recordedCalls(input.entries, input.tokens, firstCall));
  if (entered === undefined || entered.trim() === '') return recorded;
  if (use === 'fallback' && recorded.source === 'recorded') return recorded;
  return chooseUnseenPrefix(recorded, parseUnseenPrefix(entered));
}

/**
 * The unseen prefix of a branch as the page's gauge shows it: the entries it counts (gauge-context.ts)
 * with their counts, read from `firstCall` (0: the first call), the user's estimate applying only
 * where no call recorded usage (as on the Compact page).
 */
export function branchUnseenPrefix(entries: readonly Entry[], counts: ArrayLike<number>, entered?: string, firstCall = 0): UnseenPrefix {
  try {
    return sessionUnseenPrefix({ entries, tokens: new TokenIndex(counts) }, firstCall, entered, 'fallback');
  } catch {
    // A malformed estimate is refused where it is entered (its field says why); the gauge counts 0.
    return sessionUnseenPrefix({ entries, tokens: new TokenIndex(counts) }, firstCall);
  }
}

/**
 * "72,484 sent = 39,072 in the transcript + 33,412 not in it: system prompt and tool definitions,
 * from the usage recorded at call 3" (or "estimate: claude-code preset", or "0: no usage recorded;
 * enter one in settings").
 */
export function sentSentence(transcriptTokens: number, prefix: UnseenPrefix): string {
  const head = `${fmt(transcriptTokens + prefix.tokens)} sent = ${fmt(transcriptTokens)} in the transcript + `;
  if (prefix.source === 'recorded') {
    return `${head}${fmt(prefix.tokens)} not in it: system prompt and tool definitions, from the usage recorded at call ${(prefix.call ?? 0) + 1}`;
  }
  if (prefix.source === 'estimate') {
    return `${head}${fmt(prefix.tokens)} not in it: system prompt and tool definitions (estimate: ${prefix.preset ? `${prefix.preset} preset` : 'entered by hand'})`;
  }
  return `${head}0: no usage recorded; enter one in settings`;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
