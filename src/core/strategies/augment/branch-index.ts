/**
 * Augment's view of a branch kept up to date as entries are appended, so that the trigger, asked
 * before every agent-loop iteration of a replay, reads the history size in O(1) and a plan walks
 * only the exchanges after the last summary node. It indexes each entry once: its characters
 * (prefix sums over non-system entries), the exchange starts `segmentExchanges` would find without
 * pins or forced starts (a forced start is one more start, added when the view is read), the first
 * index of each id, and the call each tool result answers. Entries are never edited once on a
 * branch, so a branch that grows by one entry costs one entry of work; a tool result that answers a
 * call from before a user message demotes that message from turn opener, as `segmentExchanges`
 * does, in a rare O(n) step.
 */
import type { Entry, ToolCallBlock } from '../../journal/entry.ts';
import { getEstimator } from '../../tokens/counters.ts';
import { countEntry } from '../../tokens/entry-tokens.ts';
import { isSystem, opensTurn } from './exchanges.ts';
import { NumList } from '../num-list.ts';

const CHARS = getEstimator('chars');
/** Characters per entry object: entries are never edited, so a branch that grows by one entry recounts one entry. */
const charsByEntry = new WeakMap<Entry, number>();

/** Characters of one entry (code points as the entry is counted; an image weighs 4,800). */
export function charsOfEntry(entry: Entry): number {
  let chars = charsByEntry.get(entry);
  if (chars === undefined) {
    chars = countEntry(entry, CHARS).total;
    charsByEntry.set(entry, chars);
  }
  return chars;
}

const ints = (n: number) => new Int32Array(n);
const floats = (n: number) => new Float64Array(n);
const intList = () => new NumList(new Int32Array(16), ints);

/** The tool call a tool result answers, as `toolPairs` pairs them (the newest call with its id before it). */
export interface ResultCall {
  /** Index of the result's entry. */
  result: number;
  /** Index of the call's entry. */
  call: number;
  block: ToolCallBlock;
}

export class AugmentBranchIndex {
  /** The entries indexed so far (references; never modified). */
  readonly entries: Entry[] = [];
  private readonly chars = new NumList(new Float64Array(16), floats);
  /** nonSystemChars[k] = characters of the non-system entries 0..k-1. */
  private readonly nonSystemChars = new NumList(new Float64Array(16), floats);
  /** Newest non-system index at or before each index, or -1. */
  private readonly lastNonSystem = intList();
  private readonly system = intList();
  /** Exchange starts of the iteration and turn units (ascending), and the user messages that open a turn. */
  private readonly iterationStarts = intList();
  private readonly turnStarts = intList();
  private readonly openers = intList();
  /** Per index: a request that follows a response (an iteration start whatever the turns). */
  private localStart = new Uint8Array(16);
  private firstNonSystem = -1;
  private previousRole: Entry['role'] | undefined;
  private readonly ids = new Map<string, number>();
  private readonly callAt = new Map<string, { index: number; block: ToolCallBlock }>();
  private readonly resultsAt = new Map<string, number[]>();
  /** Tool results with their calls, by result index (ascending). */
  readonly resultCalls: ResultCall[] = [];
  /** Entries flagged pinned (a view with pins is built from scratch). */
  flaggedPinned = 0;

  get length(): number {
    return this.entries.length;
  }

  append(entry: Entry): void {
    const i = this.entries.length;
    this.entries.push(entry);
    const chars = charsOfEntry(entry);
    const system = isSystem(entry);
    this.chars.push(chars);
    if (this.nonSystemChars.length === 0) this.nonSystemChars.push(0);
    this.nonSystemChars.push(this.nonSystemChars.at(i) + (system ? 0 : chars));
    this.lastNonSystem.push(system ? (i > 0 ? this.lastNonSystem.at(i - 1) : -1) : i);
    if (entry.flags?.pinned) this.flaggedPinned++;
    if (!this.ids.has(entry.id)) this.ids.set(entry.id, i);
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') this.callAt.set(block.callId, { index: i, block });
      else if (block.type === 'tool_result') {
        const results = this.resultsAt.get(block.callId);
        if (results) results.push(i);
        else this.resultsAt.set(block.callId, [i]);
        const call = this.callAt.get(block.callId);
        if (call === undefined) continue;
        this.resultCalls.push({ result: i, call: call.index, block: call.block });
        if (call.index < i) this.demoteOpeners(call.index, i);
      }
    }
    if (i >= this.localStart.length) {
      const grown = new Uint8Array(this.localStart.length * 2);
      grown.set(this.localStart);
      this.localStart = grown;
    }
    if (system) {
      this.system.push(i);
      return;
    }
    const first = this.firstNonSystem < 0;
    if (first) this.firstNonSystem = i;
    // Entering the index, a user message cannot lie inside a pair yet: only a later result can put it there.
    const opener = opensTurn(entry);
    const local = this.previousRole === 'assistant' && entry.role !== 'assistant';
    this.localStart[i] = local ? 1 : 0;
    if (opener) this.openers.push(i);
    if (first || opener) this.turnStarts.push(i);
    if (first || opener || local) this.iterationStarts.push(i);
    this.previousRole = entry.role;
  }

  /** A result at `result` answers a call at `call`: user messages in between no longer open a turn. */
  private demoteOpeners(call: number, result: number): void {
    for (let k = this.openers.countBelow(call + 1); k < this.openers.length && this.openers.at(k) < result; k = this.openers.countBelow(call + 1)) {
      const o = this.openers.at(k);
      this.openers.remove(o);
      if (o === this.firstNonSystem) continue;
      this.turnStarts.remove(o);
      if (!this.localStart[o]) this.iterationStarts.remove(o);
    }
  }

  charsAt(i: number): number {
    return this.chars.at(i);
  }

  /** Characters of the non-system entries from..to (inclusive). */
  nonSystemCharsIn(from: number, to: number): number {
    return to < from ? 0 : this.nonSystemChars.at(to + 1) - this.nonSystemChars.at(from);
  }

  /** System entry indices in from..to (inclusive), ascending. */
  systemIn(from: number, to: number): number[] {
    const out: number[] = [];
    for (let k = this.system.countBelow(from); k < this.system.length && this.system.at(k) <= to; k++) out.push(this.system.at(k));
    return out;
  }

  /** Newest non-system index at or before i, or -1. */
  lastNonSystemAt(i: number): number {
    return i < 0 ? -1 : this.lastNonSystem.at(i);
  }

  /** Oldest non-system index at or after i, or -1. */
  firstNonSystemFrom(i: number): number {
    for (let j = i; j < this.length; j++) if (!isSystem(this.entries[j]!)) return j;
    return -1;
  }

  /** First index of an entry with this id, or -1 (as `findIndex`). */
  indexOf(id: string): number {
    return this.ids.get(id) ?? -1;
  }

  /** Index of the newest entry calling `callId`, or undefined. */
  lastCallOf(callId: string): number | undefined {
    return this.callAt.get(callId)?.index;
  }

  /** Indices of the entries answering `callId`, one per result block, ascending. */
  resultsOf(callId: string): readonly number[] {
    return this.resultsAt.get(callId) ?? [];
  }

  /** Exchange starts without forced starts, ascending. */
  starts(unit: 'iteration' | 'turn'): { count: number; at: (k: number) => number; countBelow: (x: number) => number } {
    const list = unit === 'turn' ? this.turnStarts : this.iterationStarts;
    return { count: list.length, at: (k) => list.at(k), countBelow: (x) => list.countBelow(x) };
  }
}

/** The index each branch array was last read with, and how long it was then. */
const byBranch = new WeakMap<readonly Entry[], { index: AugmentBranchIndex; length: number }>();
/** The index read last: a compaction reads a copy of the branch its trigger was just asked about. */
let latest: AugmentBranchIndex | undefined;

/** Same entry, or the same entry with other usage figures (a replay lowers recorded usage on a copy). */
function sameEntry(a: Entry, b: Entry): boolean {
  return a === b || (a.id === b.id && a.blocks === b.blocks && a.role === b.role && a.kind === b.kind && a.flags === b.flags);
}

/** The branch holds the index's entries from..to-1. */
function holds(index: AugmentBranchIndex, entries: readonly Entry[], from: number, to: number): boolean {
  if (entries.length < to) return false;
  for (let i = from; i < to; i++) if (!sameEntry(entries[i]!, index.entries[i]!)) return false;
  return true;
}

/**
 * The index of a branch. The same array grown by appends extends its index (entries it had are
 * trusted: entries are never edited); a copy of the branch read last (checked entry by entry)
 * shares that index; anything else is indexed from scratch.
 */
export function branchIndex(entries: readonly Entry[]): AugmentBranchIndex {
  const known = byBranch.get(entries);
  let index: AugmentBranchIndex | undefined;
  if (known && holds(known.index, entries, known.length, known.index.length)) index = known.index;
  else if (latest && holds(latest, entries, 0, latest.length)) index = latest;
  else index = new AugmentBranchIndex();
  for (let i = index.length; i < entries.length; i++) index.append(entries[i]!);
  byBranch.set(entries, { index, length: entries.length });
  latest = index;
  return index;
}
