/**
 * Prefix sums over per-entry token counts: "tokens in entries i..j" in O(1), appending an entry in
 * amortized O(1). Sums are kept in a Float64Array, exact up to 2^53 tokens.
 */

const MIN_CAPACITY = 16;

export class TokenIndex {
  /** prefix[k] = tokens in entries 0..k-1; slots past `size` are spare capacity. */
  private prefix: Float64Array;
  private size: number;
  /** The sums are shared with a prefix view: copy before writing. */
  private shared = false;

  constructor(counts: ArrayLike<number> = []) {
    this.size = 0;
    this.prefix = new Float64Array(Math.max(MIN_CAPACITY, counts.length + 1));
    for (let i = 0; i < counts.length; i++) this.push(counts[i]!);
  }

  /** Number of entries. */
  get length(): number {
    return this.size;
  }

  /** Tokens in all entries. */
  get total(): number {
    return this.prefix[this.size]!;
  }

  /**
   * The index of the first `n` entries, in O(1): it shares this index's sums (a replay asks for
   * thousands of prefixes). Appending to either copies the sums first, so neither sees the other's.
   */
  prefixOf(n: number): TokenIndex {
    if (!Number.isInteger(n) || n < 0 || n > this.size) throw new RangeError(`Prefix of ${n} entries is outside the ${this.size} counted entries.`);
    const view = Object.create(TokenIndex.prototype) as TokenIndex;
    view.prefix = this.prefix;
    view.size = n;
    view.shared = true;
    this.shared = true;
    return view;
  }

  /**
   * An object that is the same for this index and every prefix of it (`prefixOf`) while they share
   * their sums: two indexes with the same key give equal counts below both sizes. A cache of work
   * over the counts (a strategy's per-branch facts) keys on it.
   */
  get sumsKey(): object {
    return this.prefix;
  }

  /** Adds one entry's count (a non-negative integer) at the end. */
  append(count: number): void {
    if (this.shared) {
      this.prefix = this.prefix.slice();
      this.shared = false;
    }
    if (this.size + 1 >= this.prefix.length) {
      const grown = new Float64Array(this.prefix.length * 2);
      grown.set(this.prefix);
      this.prefix = grown;
    }
    this.push(count);
  }

  /** Tokens of entry i. */
  countAt(i: number): number {
    this.checkIndex(i);
    return this.prefix[i + 1]! - this.prefix[i]!;
  }

  /** Tokens in entries i..j inclusive. `range(i, i - 1)` is the empty range and returns 0. */
  range(i: number, j: number): number {
    if (!Number.isInteger(i) || !Number.isInteger(j) || i < 0 || j >= this.size || j < i - 1) {
      throw new RangeError(
        `Token range ${i}..${j} is outside the ${this.size} counted entries (need 0 <= i <= j + 1, j < ${this.size}).`,
      );
    }
    return this.prefix[j + 1]! - this.prefix[i]!;
  }

  private checkIndex(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) {
      throw new RangeError(`Entry index ${i} is outside the ${this.size} counted entries.`);
    }
  }

  private push(count: number): void {
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(`Token count ${count} at entry ${this.size} is not a non-negative integer.`);
    }
    this.prefix[this.size + 1] = this.prefix[this.size]! + count;
    this.size++;
  }
}
