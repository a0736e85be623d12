/**
 * Byte-pair merge in O(n log n) for long pre-tokenized pieces (a base64 image, a minified line, a
 * separator of 100k '=' characters), resumable so a long piece can be counted in slices.
 *
 * Why: gpt-tokenizer's `bytePairMerge` (BytePairEncodingCore.ts) rescans every pair for the lowest
 * rank and splices two arrays on each merge, so one piece of n bytes costs O(n²): 25k repeated
 * characters take ~2 s and 100k ~30 s. This merge does the same thing in the same order: it merges
 * the adjacent pair of lowest rank, the leftmost one on a tie, until no adjacent pair is a token;
 * only the search is a binary heap keyed by (rank, byte offset) over a linked list of parts, with
 * stale heap entries dropped when popped. The result is the same list of tokens.
 */

/** No merge rank: the pair is not a token. */
export const NO_RANK = -1;

/** Rank of the bytes `piece[start, end)` as one token, or `NO_RANK`. */
export type RankOf = (piece: Uint8Array, start: number, end: number) => number;

/**
 * Ranks of pairs of tokens already looked up, keyed `leftRank * 2^21 + rightRank`: a token's rank
 * names its bytes, so the pair's rank is a function of the two ranks. Shared by the pieces of one
 * encoding (a long run asks for the same few pairs again and again); cleared when it gets large.
 */
export class PairRanks {
  private readonly map = new Map<number, number>();
  /** Entries kept before the cache is cleared. Default 1,000,000. Unit: entries. */
  constructor(private readonly limit = 1_000_000) {}
  get(key: number): number | undefined {
    return this.map.get(key);
  }
  set(key: number, rank: number): void {
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, rank);
  }
}

const RANK_SPAN = 2 ** 21;

/** Work done, for tests that bound it (counts, never time). */
export interface MergeWork {
  /** Rank requests for candidate pairs (answered from `PairRanks` or looked up). */
  lookups: number;
  /** Heap pushes and pops. */
  heapOps: number;
  merges: number;
}

// Key = rank * 2^32 + offset: ranks (< 2^21) and offsets (< 2^32) fit exactly in a double, and the
// order of keys is the order (rank, offset) the reference merge picks pairs in.
const OFFSET_SPAN = 2 ** 32;

/**
 * One piece being merged. `step(budget)` does at most `budget` units of work (a pair looked up or
 * a merge) and returns true once the piece is fully merged; `tokens` is then its token count.
 */
export class PieceMerge {
  private readonly n: number;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  /** Current rank of the pair that starts at each live part (NO_RANK if none). */
  private readonly rank: Int32Array;
  /** Token rank of each live part (its bytes are one token: a byte, or a merged pair). */
  private readonly token: Int32Array;
  private heap: Float64Array;
  private size = 0;
  /** Offsets whose initial pair rank is not computed yet. */
  private initialized = 0;
  private parts: number;
  readonly work: MergeWork = { lookups: 0, heapOps: 0, merges: 0 };

  constructor(
    private readonly piece: Uint8Array,
    private readonly rankOf: RankOf,
    private readonly pairs: PairRanks = new PairRanks(),
  ) {
    const n = piece.length;
    this.n = n;
    this.parts = n;
    this.next = new Int32Array(n);
    this.prev = new Int32Array(n);
    this.rank = new Int32Array(n);
    this.token = new Int32Array(n);
    this.heap = new Float64Array(Math.max(16, n));
  }

  /** Tokens in the piece once `step` has returned true (before that, the parts so far). */
  get tokens(): number {
    return this.parts;
  }

  /** Token boundaries (start offsets of each part, in order); for tests. */
  starts(): number[] {
    const out: number[] = [];
    for (let i = 0; i !== -1 && i < this.n; i = this.next[i]!) out.push(i);
    return out;
  }

  step(budget: number): boolean {
    let left = budget;
    while (this.initialized < this.n) {
      if (left-- <= 0) return false;
      const i = this.initialized++;
      this.next[i] = i + 1 < this.n ? i + 1 : -1;
      this.prev[i] = i - 1;
      if (i === 0) this.token[0] = this.byteRank(0);
      if (i + 1 < this.n) this.token[i + 1] = this.byteRank(i + 1);
      const r = i + 1 < this.n ? this.lookup(i, i + 1, i + 2) : NO_RANK;
      this.rank[i] = r;
      // Pushed in offset order with ranks arbitrary: a plain push keeps the heap valid.
      if (r !== NO_RANK) this.push(r * OFFSET_SPAN + i);
    }
    while (this.size > 0) {
      if (left-- <= 0) return false;
      const key = this.pop();
      const r = Math.floor(key / OFFSET_SPAN);
      const i = key - r * OFFSET_SPAN;
      // Stale: the part was merged into its left neighbour, or its pair changed rank.
      if (this.rank[i] !== r || (i > 0 && this.prev[i] === -2)) continue;
      this.merge(i);
    }
    return true;
  }

  /** Merges part `i` with the next part and refreshes the two pairs that changed. */
  private merge(i: number): void {
    const j = this.next[i]!;
    const k = this.next[j]!;
    this.token[i] = this.rank[i]!;
    this.next[i] = k;
    if (k !== -1) this.prev[k] = i;
    this.prev[j] = -2; // dead
    this.rank[j] = NO_RANK;
    this.parts--;
    this.work.merges++;
    this.refresh(i);
    const p = this.prev[i]!;
    if (p >= 0) this.refresh(p);
  }

  /** Recomputes the rank of the pair starting at live part `i` and queues it if it is a token. */
  private refresh(i: number): void {
    const j = this.next[i]!;
    const r = j === -1 ? NO_RANK : this.lookup(i, j, this.next[j] === -1 ? this.n : this.next[j]!);
    this.rank[i] = r;
    if (r !== NO_RANK) this.push(r * OFFSET_SPAN + i);
  }

  /** Rank of parts `i` and `j` (ending at `end`) as one token. */
  private lookup(i: number, j: number, end: number): number {
    this.work.lookups++;
    const key = this.token[i]! * RANK_SPAN + this.token[j]!;
    const known = this.pairs.get(key);
    if (known !== undefined) return known;
    const r = this.rankOf(this.piece, i, end);
    this.pairs.set(key, r);
    return r;
  }

  private byteRank(i: number): number {
    const r = this.rankOf(this.piece, i, i + 1);
    // Every byte is a token in a byte-level BPE; if one were not, it would stay a part of its own.
    return r === NO_RANK ? RANK_SPAN - 1 - this.piece[i]! : r;
  }

  private push(key: number): void {
    this.work.heapOps++;
    if (this.size === this.heap.length) this.compact();
    const heap = this.heap;
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = heap[parent]!;
      if (above <= key) break;
      heap[at] = above;
      at = parent;
    }
    heap[at] = key;
  }

  private pop(): number {
    this.work.heapOps++;
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap[--this.size]!;
    const size = this.size;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
      if (heap[child]! >= last) break;
      heap[at] = heap[child]!;
      at = child;
    }
    if (size > 0) heap[at] = last;
    return top;
  }

  /**
   * Drops stale entries when the heap is full, so memory stays at one slot per byte; if most entries
   * are live the heap doubles instead (each live pair has one current entry, so this stays O(n)).
   */
  private compact(): void {
    const heap = this.heap;
    let kept = 0;
    for (let at = 0; at < this.size; at++) {
      const key = heap[at]!;
      const r = Math.floor(key / OFFSET_SPAN);
      const i = key - r * OFFSET_SPAN;
      if (this.rank[i] === r && this.prev[i] !== -2) heap[kept++] = key;
    }
    if (kept > heap.length / 2) {
      const grown = new Float64Array(heap.length * 2);
      grown.set(heap.subarray(0, kept));
      this.heap = grown;
    }
    // Sorting makes an array a valid min-heap; stale entries are rare here, so this is seldom run.
    this.heap.subarray(0, kept).sort();
    this.size = kept;
  }
}

/** Merges a whole piece at once; returns its token count. */
export function mergeCount(piece: Uint8Array, rankOf: RankOf, pairs?: PairRanks): number {
  const merge = new PieceMerge(piece, rankOf, pairs);
  merge.step(Number.POSITIVE_INFINITY);
  return merge.tokens;
}
