/**
 * pi's findCutPoint (P2) and split-turn detection (P3): walking back from the newest entry, the
 * kept tail grows until it holds keepRecentTokens; the cut then lands on a user or assistant
 * message, never on a tool result, and never between a tool call and its result.
 */
import type { Entry } from '../../journal/entry.ts';
import type { TokenIndex } from '../../tokens/prefix-sums.ts';
import { groupDigits } from './options.ts';

/**
 * pi's legal cut points: user-role messages (the user's words, custom messages and `!command`
 * executions all import as user) and assistant messages. A tool result must follow its call.
 */
export function isValidCutPoint(entry: Entry): boolean {
  return entry.kind === 'message' && (entry.role === 'user' || entry.role === 'assistant');
}

/** Index of the user-role message that starts the turn holding `index`, searching down to `start`; -1 if none. */
export function findTurnStart(entries: readonly Entry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) {
    const entry = entries[i]!;
    if (entry.kind === 'message' && entry.role === 'user') return i;
  }
  return -1;
}

export interface CutPoint {
  /** Index of the first entry kept verbatim. */
  firstKeptIndex: number;
  /** When the cut splits a turn: index of the user message that starts it; otherwise -1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
  /** Where the newest-first total first reached keepRecentTokens; -1 if the span is smaller. */
  reachedAt: number;
  /** Tokens of entries firstKeptIndex..end-1. */
  keptTokens: number;
  /** How the cut was placed, in order (shown in the plan). */
  steps: string[];
}

/** For each tool result in start..end-1, the index of the nearest earlier entry holding its call. */
function callIndices(entries: readonly Entry[], start: number, end: number): Map<number, number[]> {
  const latestCall = new Map<string, number>();
  const callsOfResult = new Map<number, number[]>();
  for (let i = start; i < end; i++) {
    const entry = entries[i]!;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') latestCall.set(block.callId, i);
      else if (block.type === 'tool_result') {
        const call = latestCall.get(block.callId);
        if (call !== undefined && call < i) callsOfResult.set(i, [...(callsOfResult.get(i) ?? []), call]);
      }
    }
  }
  return callsOfResult;
}

/**
 * The cut for the span start..end-1 (start: the last compaction boundary). Returns undefined when
 * the span has no user or assistant message to cut at.
 *
 * Entries are counted newest-first; the entry at which the total reaches keepRecentTokens is the
 * first kept (pi: "accumulate until >= keepRecentTokens, cut there"). When that entry is a tool
 * result the cut moves back to the message that made the call, so the kept tail still holds
 * keepRecentTokens (pi moves forward instead; see docs). When the span is smaller than
 * keepRecentTokens the cut is the first legal cut point, i.e. nothing is summarized.
 */
export function findCutPoint(entries: readonly Entry[], tokens: TokenIndex, start: number, end: number, keepRecentTokens: number): CutPoint | undefined {
  let firstValid = -1;
  for (let i = start; i < end; i++) {
    if (isValidCutPoint(entries[i]!)) {
      firstValid = i;
      break;
    }
  }
  if (firstValid < 0) return undefined;

  const steps: string[] = [];
  let reachedAt = -1;
  let total = 0;
  for (let i = end - 1; i >= start; i--) {
    total += tokens.countAt(i);
    if (total >= keepRecentTokens) {
      reachedAt = i;
      break;
    }
  }

  let cut: number;
  if (reachedAt < 0) {
    cut = firstValid;
    steps.push(`The ${groupDigits(total)} tokens since the boundary are below keepRecentTokens ${groupDigits(keepRecentTokens)}: everything is kept.`);
  } else {
    const id = entries[reachedAt]!.id;
    steps.push(`Newest-first, the kept tail reaches keepRecentTokens ${groupDigits(keepRecentTokens)} at ${id} (${groupDigits(total)} tokens).`);
    cut = -1;
    for (let i = reachedAt; i >= start; i--) {
      if (isValidCutPoint(entries[i]!)) {
        cut = i;
        break;
      }
    }
    if (cut < 0) {
      for (let i = reachedAt + 1; i < end; i++) {
        if (isValidCutPoint(entries[i]!)) {
          cut = i;
          break;
        }
      }
      steps.push(`No user or assistant message at or before ${id} since the boundary: the cut moves forward to ${cut < 0 ? 'the end' : entries[cut]!.id}, keeping less than keepRecentTokens.`);
      if (cut < 0) cut = end;
    } else if (cut !== reachedAt) {
      steps.push(`${id} is a ${entries[reachedAt]!.role} entry, not a legal cut point: the cut moves back to ${entries[cut]!.id}.`);
    }
  }

  // A result kept after the cut must keep its call: move the cut back to the call (and, should
  // the call sit in an entry that is not a legal cut point, on back to one).
  const calls = callIndices(entries, start, end);
  let scanFrom = end;
  while (cut < scanFrom) {
    let earliest = cut;
    for (let i = cut; i < scanFrom; i++) for (const call of calls.get(i) ?? []) earliest = Math.min(earliest, call);
    while (earliest > start && earliest < cut && !isValidCutPoint(entries[earliest]!)) earliest--;
    scanFrom = cut;
    if (earliest < cut) {
      steps.push(`A kept tool result answers a call in ${entries[earliest]!.id}: the cut moves back to it.`);
      cut = earliest;
    }
  }

  const keptTokens = cut < end ? tokens.range(cut, end - 1) : 0;
  const cutEntry = entries[cut];
  const turnStartIndex = cutEntry && cutEntry.role !== 'user' ? findTurnStart(entries, cut - 1, start) : -1;
  const isSplitTurn = turnStartIndex >= 0;
  if (isSplitTurn) steps.push(`${cutEntry!.id} is inside the turn started by ${entries[turnStartIndex]!.id}: that turn's prefix gets its own summary.`);
  return { firstKeptIndex: cut, turnStartIndex, isSplitTurn, reachedAt, keptTokens, steps };
}
