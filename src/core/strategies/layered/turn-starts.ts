/**
 * The whole-turn starts of a branch kept as it grows (what `turnStarts` finds from scratch): a
 * turn-opening user message that no tool_use/tool_result pair spans. A pair only ever gets added,
 * so a start, once spanned, stays spanned; the starts are an ascending list that grows at the end
 * and loses the few a late tool result spans. Counting the starts after an index and reading the
 * k-th of them are binary searches, so a plan asked before every call of a replay does not walk
 * the history to find its cut.
 */
import { IndexList } from '../num-list.ts';

export class TurnStartList {
  private readonly starts = new IndexList();

  /** Entry `index` (the next one of the branch) opens a turn. */
  open(index: number): void {
    this.starts.push(index);
  }

  /** A tool pair with its call at `call` and its result at `result` (> call) spans the starts in (call, result]. */
  span(call: number, result: number): void {
    if (result > call) this.starts.removeRange(call + 1, result);
  }

  /** Number of starts at or after `from`. */
  countFrom(from: number): number {
    return this.starts.length - this.starts.countBelow(from);
  }

  /** The k-th start (0-based) at or after `from`; undefined past the last. */
  nthFrom(from: number, k: number): number | undefined {
    const at = this.starts.countBelow(from) + k;
    return k >= 0 && at < this.starts.length ? this.starts.at(at) : undefined;
  }
}
