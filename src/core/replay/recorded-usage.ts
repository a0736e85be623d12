/**
 * What the agent really sent, call by call, and the part of it the transcript never shows.
 *
 * The unseen prefix of a call is the prompt tokens its provider recorded (`usage.input`: fresh input
 * plus cache reads and cache writes, as every importer normalizes it) minus the tokens, with the
 * chosen counter, of the transcript entries that call was sent (from the agent's own latest
 * compaction, or the branch's start, up to the call): the system prompt, the tool definitions and
 * the harness's own framing, plus the difference between the provider's tokenizer and the counter.
 *
 * One figure stands for a session: the median per-call figure of the `PREFIX_CALLS` calls sent the
 * smallest counted context (the first calls, and those right after the agent's own compaction, whose
 * context is counted from that compaction). The provider's tokenizer and the counter disagree by a
 * share of the transcript (on the Claude Code sample the recorded usage grows about 1.4 times as
 * fast as the o200k count), so calls with little transcript measure the prefix best; a median of
 * several, so one odd call (a retried request, a changed tool list) cannot set it. The call that
 * gives it is named ("from the usage recorded at call N"), and that growth is reported beside it
 * (`providerRatio`), not folded into the prefix.
 */
import type { Entry } from '../journal/entry.ts';
import type { TokenIndex } from '../tokens/prefix-sums.ts';
import { findCalls } from './calls.ts';

/** One model call of a branch with what the source recorded for it. */
export interface RecordedCall {
  /** 0-based call number, as the replay numbers calls (`findCalls`). */
  call: number;
  /** Index (in the input) of the assistant entry that answered the call. */
  entryIndex: number;
  entryId: string;
  /** Prompt tokens the provider recorded for the call (input + cache read + cache write); null when none was recorded. */
  sentTokens: number | null;
  /** Tokens (counter units) of the transcript entries the call was sent, from the agent's own latest compaction on. */
  countedTokens: number;
  /** `sentTokens - countedTokens`; null without recorded usage. Negative when the counter counts more than the provider did. */
  unseenTokens: number | null;
}

/** The unseen prefix that stands for a session, and where it comes from. */
export interface UnseenPrefix {
  /** Tokens added to every call's context (never negative). */
  tokens: number;
  /** 'recorded': derived from recorded usage; 'estimate': a preset or a number the user entered; 'none': 0. */
  source: 'recorded' | 'estimate' | 'none';
  /** The preset an estimate comes from (unseen-estimate.ts), when it is one. */
  preset?: string;
  /** The call (0-based) whose recorded usage gives the figure, with source 'recorded'. */
  call?: number;
  entryId?: string;
  /** How many calls recorded usage. */
  calls: number;
  /**
   * How much faster the recorded usage grows than the counted transcript: the median over calls
   * sent at least 1,000 counted tokens of (sent - prefix) / counted. Near 1 when the counter is the
   * provider's tokenizer; absent without recorded usage.
   */
  providerRatio?: number;
  /** One sentence for the page and the JSON: what the figure is and where it comes from. */
  note: string;
}

/** How many of the calls with the smallest counted context give the session's figure (their median). */
export const PREFIX_CALLS = 3;

/**
 * Prompt tokens recorded for the reply `entry`, or undefined: only a real assistant reply carries a
 * usage that describes its request (aborted, failed and synthetic replies do not).
 */
export function recordedSentTokens(entry: Entry): number | undefined {
  if (entry.role !== 'assistant' || entry.kind !== 'message' || !entry.usage) return undefined;
  if (entry.flags?.aborted || entry.flags?.error || entry.flags?.synthetic) return undefined;
  return entry.usage.input > 0 ? entry.usage.input : undefined;
}

/**
 * Where the agent's own compaction at `index` leaves its context: the summary entry, and for pi the
 * entries it kept from `firstKeptEntryId` (they come before the compaction entry in the file).
 */
function ownCompaction(entries: readonly Entry[], index: number, byId: Map<string, number>): { keptFrom: number; keptTo: number } | undefined {
  const entry = entries[index]!;
  if (entry.kind !== 'compaction' || entry.role !== 'summary' || entry.marker?.source === 'pi.branch_summary') return undefined;
  const kept = entry.marker?.firstKeptEntryId !== undefined ? byId.get(entry.marker.firstKeptEntryId) : undefined;
  return kept !== undefined && kept < index ? { keptFrom: kept, keptTo: index - 1 } : { keptFrom: index, keptTo: index - 1 };
}

/**
 * Every call of `entries` (a replay's input; calls numbered as the replay numbers them, from the
 * reply after `firstCall`) with its recorded and counted size. O(entries). A call after the agent's
 * own compaction is counted from it only where `entries` hold that compaction: the whole-session
 * input leaves them out, and there such calls come out low (their usage is of the compacted
 * context); the session's figure, read from the calls sent the least transcript, stays right.
 */
export function recordedCalls(entries: readonly Entry[], tokens: TokenIndex, firstCall = 0): RecordedCall[] {
  const byId = new Map<string, number>();
  // Context of the source at a point: the kept range before its latest compaction, then from the compaction on.
  let kept = 0;
  let from = 0;
  let c = 0;
  const calls = findCalls(entries, firstCall);
  const out: RecordedCall[] = [];
  for (let i = 0; i < entries.length && c < calls.length; i++) {
    const entry = entries[i]!;
    byId.set(entry.id, i);
    const own = ownCompaction(entries, i, byId);
    if (own) {
      kept = own.keptTo >= own.keptFrom ? tokens.range(own.keptFrom, own.keptTo) : 0;
      from = i;
    }
    if (calls[c] !== i) continue;
    const countedTokens = kept + (i > from ? tokens.range(from, i - 1) : 0);
    const sent = recordedSentTokens(entry);
    out.push({
      call: c, entryIndex: i, entryId: entry.id,
      sentTokens: sent ?? null, countedTokens, unseenTokens: sent === undefined ? null : sent - countedTokens,
    });
    c++;
  }
  return out;
}

/** The session's unseen prefix from its recorded calls (see the module header). */
export function unseenPrefixOf(calls: readonly RecordedCall[]): UnseenPrefix {
  const recorded = calls.filter((call) => call.unseenTokens !== null);
  if (recorded.length === 0) {
    return { tokens: 0, source: 'none', calls: 0, note: 'No call recorded its usage: the context counts only the transcript (the system prompt and tool definitions are not in it; enter an estimate to include them).' };
  }
  const smallest = recorded.slice().sort((a, b) => a.countedTokens - b.countedTokens || a.call - b.call).slice(0, PREFIX_CALLS);
  smallest.sort((a, b) => a.unseenTokens! - b.unseenTokens! || a.call - b.call);
  const median = smallest[(smallest.length - 1) >> 1]!;
  const tokens = Math.max(0, median.unseenTokens!);
  const ratios = recorded.filter((call) => call.countedTokens >= 1_000).map((call) => (call.sentTokens! - tokens) / call.countedTokens).sort((a, b) => a - b);
  const providerRatio = ratios.length > 0 ? Math.round(ratios[(ratios.length - 1) >> 1]! * 100) / 100 : undefined;
  const sent = median.sentTokens!;
  const growth = providerRatio !== undefined && Math.abs(providerRatio - 1) >= 0.05
    ? ` Beyond it, the recorded usage grows about ${providerRatio} times as fast as the counted transcript: the provider's tokenizer and the counter disagree.`
    : '';
  const note = median.unseenTokens! < 0
    ? `The usage recorded at call ${median.call + 1} (${fmt(sent)} sent) is below the ${fmt(median.countedTokens)} tokens counted in the transcript: the counter counts more than the provider did, so nothing is added for the system prompt and tool definitions.${growth}`
    : `${fmt(sent)} sent = ${fmt(median.countedTokens)} in the transcript + ${fmt(tokens)} not in it: system prompt and tool definitions, from the usage recorded at call ${median.call + 1} (of the ${smallest.length} calls with usage sent the least transcript).${growth}`;
  return { tokens, source: 'recorded', call: median.call, entryId: median.entryId, calls: recorded.length, ...(providerRatio !== undefined ? { providerRatio } : {}), note };
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
