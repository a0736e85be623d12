/**
 * pi's findCutPoint (P2) and split-turn detection (P3): walking back from the newest entry, the
 * kept tail grows until it holds keepRecentTokens; the cut then lands on a user or assistant
 * message, never on a tool result, and never between a tool call and its result.
 */
import type { Entry } from '../../journal/entry.ts';
import type { TokenIndex } from '../../tokens/prefix-sums.ts';

/**
 * `groupDigits` from options.ts (same output) without its regular expression: the steps are built
 * on every PiCutTracker.cut, where the regex alone cost about a microsecond.
 */
export function groupedDigits(n: number): string {
  const digits = Math.abs(Math.round(n)).toString();
  // Infinity, NaN and exponent notation (1e21 and up, far beyond any count) are left as they are.
  if (digits.length <= 3 || !Number.isFinite(n) || digits.includes('e')) return (n < 0 ? '-' : '') + digits;
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3);
  return (n < 0 ? '-' : '') + out;
}

/**
 * pi's legal cut points: user-role messages (the user's words, custom messages and `!command`
 * executions all import as user) and assistant messages. A tool result must follow its call.
 */
export function isValidCutPoint(entry: Entry): boolean {
  return entry.kind === 'message' && (entry.role === 'user' || entry.role === 'assistant');
}

/** Whether an entry starts a turn (a user-role message). */
export function isTurnStart(entry: Entry): boolean {
  return entry.kind === 'message' && entry.role === 'user';
}

/** Index of the user-role message that starts the turn holding `index`, searching down to `start`; -1 if none. */
export function findTurnStart(entries: readonly Entry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) if (isTurnStart(entries[i]!)) return i;
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

/**
 * What placing a cut in start..end-1 needs to look up. findCutPoint answers by scanning near the
 * tail; PiCutTracker (incremental.ts) answers from indexes it keeps as entries are appended.
 */
export interface CutLookup {
  /** Newest legal cut point in start..i, or -1. */
  legalAtOrBefore(i: number): number;
  /** Oldest legal cut point in i..end-1, or -1. */
  legalAtOrAfter(i: number): number;
  /** The smallest of lo and the indices of the calls answered by tool results in lo..hi-1 (resolved as `resultCalls` does). */
  earliestCall(lo: number, hi: number): number;
  /** Newest user-role message in start..i, or -1. */
  turnStart(i: number): number;
}

/** How a tool result's call is found: by the link set at import, else by callId. */
export interface CallResolver {
  /** Index of the entry with this id in start..before-1 that makes a tool call, or -1. */
  byId(id: string, before: number): number;
  /** Index of the newest entry in start..before-1 holding a call with this callId, or -1. */
  byCallId(callId: string, before: number): number;
}

/**
 * The smallest index of a call answered by a tool result in entry i, or i if none lies before it.
 * A linked result (callEntryId) follows its link; an unlinked one pairs with the newest earlier
 * call of the same callId, unless the same entry made that call first (then the pair is in one
 * entry and cannot be split).
 */
export function resultCalls(entry: Entry, i: number, resolve: CallResolver): number {
  let earliest = i;
  const blocks = entry.blocks;
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k]!;
    if (block.type !== 'tool_result') continue;
    let call: number;
    if (block.callEntryId !== undefined) call = block.callEntryId === entry.id ? i : resolve.byId(block.callEntryId, i);
    else call = callsBefore(entry, k, block.callId) ? i : resolve.byCallId(block.callId, i);
    if (call >= 0 && call < earliest) earliest = call;
  }
  return earliest;
}

/** Whether one of the entry's blocks before block k calls callId. */
function callsBefore(entry: Entry, k: number, callId: string): boolean {
  for (let j = 0; j < k; j++) {
    const block = entry.blocks[j]!;
    if (block.type === 'tool_call' && block.callId === callId) return true;
  }
  return false;
}

/**
 * Lookups by scanning from the tail: ids and calls are indexed newest-first, only as far back as
 * a lookup needs, so the cost follows the kept tail. A result whose call is not in the span (or
 * an unlinked result whose callId has no earlier call) indexes back to `start` once.
 */
class TailScan implements CutLookup, CallResolver {
  /** Entries low..end-1 are indexed. */
  private low: number;
  /** Ids of the entries that make calls (what a result's link can point at), newest index first. */
  private readonly ids = new Map<string, number>();
  /** Call indices per callId, newest first. */
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly entries: readonly Entry[],
    private readonly start: number,
    private readonly end: number,
  ) {
    this.low = end;
  }

  legalAtOrBefore(i: number): number {
    for (let j = i; j >= this.start; j--) if (isValidCutPoint(this.entries[j]!)) return j;
    return -1;
  }

  legalAtOrAfter(i: number): number {
    for (let j = i; j < this.end; j++) if (isValidCutPoint(this.entries[j]!)) return j;
    return -1;
  }

  earliestCall(lo: number, hi: number): number {
    let earliest = lo;
    for (let i = lo; i < hi; i++) earliest = Math.min(earliest, resultCalls(this.entries[i]!, i, this));
    return earliest;
  }

  turnStart(i: number): number {
    return findTurnStart(this.entries, i, this.start);
  }

  byId(id: string, before: number): number {
    let found = this.ids.get(id);
    while (found === undefined && this.low > this.start) {
      this.extend();
      found = this.ids.get(id);
    }
    return found !== undefined && found < before ? found : -1;
  }

  byCallId(callId: string, before: number): number {
    while (this.low > before) this.extend();
    for (const index of this.calls.get(callId) ?? []) if (index < before) return index;
    // Nothing in low..before-1: the next one indexed further back is the newest before `before`.
    while (this.low > this.start) {
      const added = this.extend();
      if (added.includes(callId)) return this.low;
    }
    return -1;
  }

  /** Indexes entry low-1; returns the callIds it calls. */
  private extend(): string[] {
    const i = --this.low;
    const entry = this.entries[i]!;
    const made: string[] = [];
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      if (!this.ids.has(entry.id)) this.ids.set(entry.id, i);
      made.push(block.callId);
      const list = this.calls.get(block.callId);
      if (list === undefined) this.calls.set(block.callId, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
    return made;
  }
}

/**
 * The newest index in start..end-1 where the tokens of index..end-1 reach keep (binary search on
 * the prefix sums: the tail total only grows as the index moves back), with that total; -1 and the
 * span's total when the span holds less.
 */
export function reachPoint(tokens: TokenIndex, start: number, end: number, keep: number): { reachedAt: number; total: number } {
  if (start >= end) return { reachedAt: -1, total: 0 };
  const span = tokens.range(start, end - 1);
  if (!(span >= keep)) return { reachedAt: -1, total: span };
  let lo = start;
  let hi = end - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (tokens.range(mid, end - 1) >= keep) lo = mid;
    else hi = mid - 1;
  }
  return { reachedAt: lo, total: tokens.range(lo, end - 1) };
}

/** The cut for start..end-1 with lookups supplied by the caller; see findCutPoint. */
export function placeCut(entries: readonly Entry[], tokens: TokenIndex, start: number, end: number, keepRecentTokens: number, lookup: CutLookup): CutPoint | undefined {
  const firstValid = start < end ? lookup.legalAtOrAfter(start) : -1;
  if (firstValid < 0) return undefined;

  const steps: string[] = [];
  const { reachedAt, total } = reachPoint(tokens, start, end, keepRecentTokens);
  let cut: number;
  if (reachedAt < 0) {
    cut = firstValid;
    steps.push(`The ${groupedDigits(total)} tokens since the boundary are below keepRecentTokens ${groupedDigits(keepRecentTokens)}: everything is kept.`);
  } else {
    const id = entries[reachedAt]!.id;
    steps.push(`Newest-first, the kept tail reaches keepRecentTokens ${groupedDigits(keepRecentTokens)} at ${id} (${groupedDigits(total)} tokens).`);
    cut = lookup.legalAtOrBefore(reachedAt);
    if (cut < 0) {
      cut = reachedAt + 1 < end ? lookup.legalAtOrAfter(reachedAt + 1) : -1;
      steps.push(`No user or assistant message at or before ${id} since the boundary: the cut moves forward to ${cut < 0 ? 'the end' : entries[cut]!.id}, keeping less than keepRecentTokens.`);
      if (cut < 0) cut = end;
    } else if (cut !== reachedAt) {
      steps.push(`${id} is a ${entries[reachedAt]!.role} entry, not a legal cut point: the cut moves back to ${entries[cut]!.id}.`);
    }
  }

  // A result kept after the cut must keep its call: move the cut back to the call (and, should
  // the call sit in an entry that is not a legal cut point, on back to one, or to the boundary).
  let scanFrom = end;
  while (cut < scanFrom) {
    let earliest = Math.min(cut, lookup.earliestCall(cut, scanFrom));
    if (earliest < cut && earliest > start && !isValidCutPoint(entries[earliest]!)) earliest = Math.max(start, lookup.legalAtOrBefore(earliest));
    scanFrom = cut;
    if (earliest < cut) {
      steps.push(`A kept tool result answers a call in ${entries[earliest]!.id}: the cut moves back to it.`);
      cut = earliest;
    }
  }

  const keptTokens = cut < end ? tokens.range(cut, end - 1) : 0;
  // entries[end] exists when the caller left out a last entry (pi's dropped error reply); as before, it is looked at.
  const cutEntry = entries[cut];
  const turnStartIndex = cutEntry && cutEntry.role !== 'user' && cut - 1 >= start ? lookup.turnStart(cut - 1) : -1;
  const isSplitTurn = turnStartIndex >= 0;
  if (isSplitTurn) steps.push(`${cutEntry!.id} is inside the turn started by ${entries[turnStartIndex]!.id}: that turn's prefix gets its own summary.`);
  return { firstKeptIndex: cut, turnStartIndex, isSplitTurn, reachedAt, keptTokens, steps };
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
 *
 * Cost follows the kept tail, not the span: the reach point is a binary search, and calls are
 * found by following each kept result's callEntryId link back (by callId when unlinked). A kept
 * result whose call is outside the span, or unlinked with no earlier call, costs one scan back to
 * `start`; so does a long run with no legal cut point or no user message before the cut.
 */
export function findCutPoint(entries: readonly Entry[], tokens: TokenIndex, start: number, end: number, keepRecentTokens: number): CutPoint | undefined {
  return placeCut(entries, tokens, start, end, keepRecentTokens, new TailScan(entries, start, end));
}
