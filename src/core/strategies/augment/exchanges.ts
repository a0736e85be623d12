/**
 * Augment's unit of history, the exchange, over journal entries. A turn opens at a user message
 * the user wrote (not harness-injected, not tool results) and runs until the next one; a tool
 * result stays in the exchange of its call, so a turn boundary never falls between the two.
 * `iteration` splits turns further at each model request, as Augment stores its history; there a
 * cut can separate calls from results, and the summary node carries the calls (seed 000 §7.2 step 3).
 */
import type { Entry } from '../../journal/entry.ts';
import type { ExchangeUnit } from './params.ts';

/** Inclusive range of input entry indices. */
export interface Exchange {
  start: number;
  end: number;
  /** Some entry of the exchange is pinned (A13): it is never summarized. */
  pinned: boolean;
}

/** A user message the user wrote: it opens a turn. */
export function opensTurn(entry: Entry): boolean {
  if (entry.role !== 'user' || entry.kind !== 'message' || entry.flags?.injected) return false;
  return !entry.blocks.some((block) => block.type === 'tool_result');
}

export function isSystem(entry: Entry): boolean {
  return entry.role === 'system' && entry.kind === 'message';
}

/** Call/result pairs by callId (call index, result index), the way the context is checked. */
export function toolPairs(entries: readonly Entry[]): Array<[number, number]> {
  const callAt = new Map<string, number>();
  const pairs: Array<[number, number]> = [];
  entries.forEach((entry, index) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') callAt.set(block.callId, index);
      else if (block.type === 'tool_result') {
        const call = callAt.get(block.callId);
        if (call !== undefined) pairs.push([call, index]);
      }
    }
  });
  return pairs;
}

/** For each index i: true when some call before i has its result at or after i (a cut at i would split it). */
function splitsAPair(entries: readonly Entry[]): boolean[] {
  const delta = new Array<number>(entries.length + 1).fill(0);
  for (const [call, result] of toolPairs(entries)) {
    if (result <= call) continue;
    delta[call + 1]! += 1;
    delta[result + 1]! -= 1;
  }
  const out: boolean[] = [];
  let open = 0;
  for (let i = 0; i < entries.length; i++) {
    open += delta[i]!;
    out.push(open > 0);
  }
  return out;
}

export interface SegmentOptions {
  unit: ExchangeUnit;
  pinned: (entry: Entry) => boolean;
  /** Indices that must start an exchange (the previous compaction's first kept entry). */
  forced?: readonly number[];
}

/**
 * Exchanges covering every non-system entry, in order. System entries inside an exchange stay in
 * its range but are not part of its size. Pinned turns are never split into iterations.
 */
export function segmentExchanges(entries: readonly Entry[], options: SegmentOptions): Exchange[] {
  const split = splitsAPair(entries);
  const forced = new Set(options.forced ?? []);
  // Turns first: pinning is decided per turn, so a pinned turn keeps its pairs together.
  const turnStart: boolean[] = entries.map((entry, i) => forced.has(i) || (opensTurn(entry) && !split[i]));
  const turns: Exchange[] = [];
  let current: Exchange | undefined;
  let startNext = false;
  entries.forEach((entry, i) => {
    if (isSystem(entry)) {
      // A forced start on a system entry moves to the next entry that is part of the history.
      if (turnStart[i]) startNext = true;
      return;
    }
    if (!current || turnStart[i] || startNext) {
      current = { start: i, end: i, pinned: false };
      turns.push(current);
      startNext = false;
    }
    current.end = i;
    if (options.pinned(entry)) current.pinned = true;
  });
  if (options.unit === 'turn') return turns;

  const out: Exchange[] = [];
  for (const turn of turns) {
    if (turn.pinned) {
      out.push(turn);
      continue;
    }
    let part: Exchange = { start: turn.start, end: turn.start, pinned: false };
    out.push(part);
    let previous: Entry | undefined;
    for (let i = turn.start; i <= turn.end; i++) {
      const entry = entries[i]!;
      if (isSystem(entry)) continue;
      // A new request starts where non-assistant input follows an assistant response.
      if (i > turn.start && entry.role !== 'assistant' && previous?.role === 'assistant') {
        part = { start: i, end: i, pinned: false };
        out.push(part);
      }
      part.end = i;
      previous = entry;
    }
  }
  return out;
}

/** Size of each exchange: the sum of `sizeOf` over its non-system entries. */
export function exchangeSizes(entries: readonly Entry[], exchanges: readonly Exchange[], sizeOf: (index: number) => number): number[] {
  return exchanges.map((exchange) => {
    let size = 0;
    for (let i = exchange.start; i <= exchange.end; i++) if (!isSystem(entries[i]!)) size += sizeOf(i);
    return size;
  });
}
