/**
 * Growable typed lists of numbers with amortized O(1) push, kept ascending by the strategies'
 * per-branch facts (augment's branch index, layered's turn starts): binary-search counts, and
 * removal of one value or a range.
 */

/** Number of values < x among the first `length` of an ascending list (a binary search). */
export function countBelow(sorted: ArrayLike<number>, x: number, length = sorted.length): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A growable typed list: amortized O(1) push. */
export class NumList<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(public values: T, private readonly make: (n: number) => T) {}

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = this.make(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  at(i: number): number {
    return this.values[i]!;
  }

  /** Number of values < x in the ascending list. */
  countBelow(x: number): number {
    return countBelow(this.values, x, this.length);
  }

  /** Removes the value x from the ascending list when present (O(n): rare). */
  remove(x: number): void {
    const at = this.countBelow(x);
    if (at >= this.length || this.values[at] !== x) return;
    this.values.copyWithin(at, at + 1, this.length);
    this.length--;
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

/** An ascending list of entry indices. */
export class IndexList extends NumList<Int32Array> {
  constructor() {
    super(new Int32Array(16), (n) => new Int32Array(n));
  }
}
