/**
 * The whole-turn starts of a branch kept as it grows (what `turnStarts` finds from scratch): a
 * turn-opening user message that no tool_use/tool_result pair spans. A pair only ever gets added,
 * so a start, once spanned, stays spanned; the starts are an ascending list that grows at the end
 * and loses the few a late tool result spans. Counting the starts after an index and reading the
 * k-th of them are binary searches, so a plan asked before every call of a replay does not walk
 * the history to find its cut.
 */

/** A growable ascending list of indices. */
export class IndexList {
  length = 0;
  private values = new Int32Array(16);

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  at(k: number): number {
    return this.values[k]!;
  }

  /** Number of values < x. */
  countBelow(x: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.values[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Removes the values in [from, to] (inclusive). */
  removeRange(from: number, to: number): void {
    const a = this.countBelow(from);
    const b = this.countBelow(to + 1);
    if (b <= a) return;
    this.values.copyWithin(a, b, this.length);
    this.length -= b - a;
  }
}

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
