/**
 * Tool result clearing's view of a growing branch: each tool use classified once (excluded tool,
 * pinned, no longer than the placeholder, or clearable) with running counts, so a replay that asks
 * the strategy before every model call reads "what is clearable below the cut" in O(1) and the
 * clearings since its last run in O(new) instead of walking every tool use again. A run that
 * started from no clearing, or from one this scan made, has cleared exactly the clearable uses
 * before its cut: later runs continue from that position.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import { blockTokens, isPinned, textTokens } from './rewrite.ts';
import type { ToolUse } from './tool-uses.ts';

export const CLEARABLE = 0;
export const EXCLUDED = 1;
export const PINNED = 2;
export const SMALL = 3;

/** What clearing depends on besides the branch: placeholders, excluded names, whether inputs are cleared. */
export interface ClearingRules {
  excluded: ReadonlySet<string>;
  clearToolInputs: boolean;
  clearedResult: string;
  clearedInput: string;
}

export class ClearingScan {
  /** Uses classified so far, and the last of them (uses are shared objects of one growing branch). */
  length = 0;
  last: ToolUse | undefined;
  /** Class of each use (CLEARABLE...). */
  readonly kind: number[] = [];
  /** Whether a clearable use's call input is cleared with it. */
  readonly input: boolean[] = [];
  /** Position of each use by call id. */
  readonly position = new Map<string, number>();
  /** counts[c][k]: uses of class c among the first k. */
  readonly counts: number[][] = [[0], [0], [0], [0]];
  /** Call ids of the clearable uses in order; inputCount[k]: clearable uses with their input cleared among the first k. */
  readonly clearableIds: string[] = [];
  readonly inputIds: string[] = [];
  readonly inputCount: number[] = [0];

  constructor(readonly pinned: CompactionInput['pinned'], readonly counter: TokenCounter) {}

  /** Whether this scan can continue over `uses` (it read a prefix of them). */
  continues(uses: readonly ToolUse[]): boolean {
    return uses.length >= this.length && (this.length === 0 || uses[this.length - 1] === this.last);
  }

  /** Classifies `uses` up to `to` (exclusive). */
  advance(input: CompactionInput, uses: readonly ToolUse[], to: number, rules: ClearingRules): void {
    for (let k = this.length; k < to; k++) {
      const u = uses[k]!;
      const kind = this.classify(input, u, rules);
      let withInput = false;
      if (kind === CLEARABLE) {
        this.clearableIds.push(u.callId);
        withInput = rules.clearToolInputs && this.inputWorthClearing(input, u, rules);
        if (withInput) this.inputIds.push(u.callId);
      }
      this.kind.push(kind);
      this.input.push(withInput);
      this.position.set(u.callId, k);
      for (let c = 0; c < 4; c++) this.counts[c]!.push(this.counts[c]![k]! + (c === kind ? 1 : 0));
      this.inputCount.push(this.inputCount[k]! + (withInput ? 1 : 0));
      this.length = k + 1;
      this.last = u;
    }
  }

  /**
   * The state a run continuing this scan up to `cut` leaves: the cleared ids under `resultsKey` and
   * `inputsKey`, copied from the scan (whose id lists only grow) when first read, not at every run of a replay.
   */
  state(cut: number, resultsKey: string, inputsKey: string): Record<string, unknown> {
    const state: Record<string, unknown> = {};
    const lazy = (key: string, ids: readonly string[], count: number) => {
      let value: string[] | undefined;
      Object.defineProperty(state, key, { enumerable: true, configurable: true, get: () => (value ??= ids.slice(0, count)) });
    };
    lazy(resultsKey, this.clearableIds, this.counts[CLEARABLE]![cut]!);
    lazy(inputsKey, this.inputIds, this.inputCount[cut]!);
    return state;
  }

  /** Whether the use with this call id is cleared once every clearable use before `cut` is (its result, or its input). */
  cleared(callId: string, cut: number, input: boolean): boolean {
    const k = this.position.get(callId);
    return k !== undefined && k < cut && this.kind[k] === CLEARABLE && (!input || this.input[k] === true);
  }

  private classify(input: CompactionInput, u: ToolUse, rules: ClearingRules): number {
    if (rules.excluded.has(u.name)) return EXCLUDED;
    const resultEntry = input.entries[u.resultIndex]!;
    const callEntry = u.callIndex === undefined ? undefined : input.entries[u.callIndex];
    if (isPinned(input, resultEntry) || (callEntry && isPinned(input, callEntry))) return PINNED;
    const block = resultEntry.blocks.find((b) => b.type === 'tool_result' && b.callId === u.callId)!;
    const own = resultEntry.blocks.length === 1 ? input.tokens.countAt(u.resultIndex) : blockTokens(block, this.counter);
    // A result no longer than the placeholder stays: clearing it would grow the context.
    return own <= textTokens(rules.clearedResult, this.counter) ? SMALL : CLEARABLE;
  }

  private inputWorthClearing(input: CompactionInput, u: ToolUse, rules: ClearingRules): boolean {
    const callEntry = u.callIndex === undefined ? undefined : input.entries[u.callIndex];
    if (!callEntry) return false;
    const call = callEntry.blocks.find((b) => b.type === 'tool_call' && b.callId === u.callId);
    return call?.type === 'tool_call' && blockTokens(call, this.counter) > textTokens(`${call.name}(${rules.clearedInput})`, this.counter);
  }
}

/** One scan per branch (its first tool use), options that shape the classes, pinned set and counter. */
const scans = new WeakMap<ToolUse, Map<string, ClearingScan>>();

export function clearingScan(input: CompactionInput, uses: readonly ToolUse[], excludeTools: string, rules: ClearingRules): ClearingScan | undefined {
  const first = uses[0];
  if (!first) return undefined;
  let byRules = scans.get(first);
  if (!byRules) scans.set(first, (byRules = new Map()));
  const key = `${excludeTools}\u0000${rules.clearToolInputs}`;
  let scan = byRules.get(key);
  if (!scan || scan.pinned !== input.pinned || scan.counter !== input.counter || !scan.continues(uses)) {
    scan = new ClearingScan(input.pinned, input.counter);
    if (byRules.size > 8) byRules.clear();
    byRules.set(key, scan);
  }
  return scan;
}

/** Call ids cleared: a Set, or every clearable use of a scan before a cut. */
export interface IdSet {
  readonly size: number;
  has(id: string): boolean;
  [Symbol.iterator](): Iterator<string>;
}

/** The clearable uses of `scan` before `cut` (their results, or the inputs cleared with them). */
export class ClearedIds implements IdSet {
  constructor(private readonly scan: ClearingScan, private readonly cut: number, private readonly inputs: boolean) {}

  get size(): number {
    return this.inputs ? this.scan.inputCount[this.cut]! : this.scan.counts[CLEARABLE]![this.cut]!;
  }

  has(id: string): boolean {
    return this.scan.cleared(id, this.cut, this.inputs);
  }

  *[Symbol.iterator](): Iterator<string> {
    const ids = this.inputs ? this.scan.inputIds : this.scan.clearableIds;
    for (let i = 0; i < this.size; i++) yield ids[i]!;
  }
}
