/**
 * Exact BPE counting that stays fast on hostile text and can stop at any point: gpt-tokenizer's own
 * pre-tokenizer regex and merge ranks, its cached merge for ordinary pieces, and `PieceMerge`
 * (O(n log n), resumable) for pieces long enough for the library's quadratic merge to hurt.
 *
 * A count proceeds piece by piece; a piece boundary found by the regex depends only on the text
 * after it (the patterns have no look-behind), so counting can pause there, or inside a long
 * piece's merge, and resume with the same result as one uninterrupted count.
 */
import { NO_RANK, PairRanks, PieceMerge, type RankOf } from './bpe-merge.ts';

/**
 * Pieces at least this long (UTF-16 units) go to `PieceMerge`; shorter ones to the library's merge,
 * whose cache makes repeated words cheap. At 256 the library's O(n²) costs ~65k steps, well under a
 * millisecond. Default 256.
 */
export const LONG_PIECE = 256;

/** What the counter needs from gpt-tokenizer's `BytePairEncodingCore` (4.x field and method names). */
interface CoreInternals {
  tokenSplitRegex: RegExp;
  bytePairStringRankEncoder: Map<string, number>;
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
  bytePairEncode(piece: string): number[];
}

/** The internals of an encoding module, or undefined if this gpt-tokenizer version lays them out differently. */
export function coreInternals(mod: { default: unknown }): CoreInternals | undefined {
  const core = (mod.default as { bytePairEncodingCoreProcessor?: Partial<CoreInternals> } | null)?.bytePairEncodingCoreProcessor;
  if (
    core === undefined ||
    !(core.tokenSplitRegex instanceof RegExp) ||
    !(core.bytePairStringRankEncoder instanceof Map) ||
    typeof core.getBpeRankFromBytes !== 'function' ||
    typeof core.bytePairEncode !== 'function'
  ) {
    return undefined;
  }
  return core as CoreInternals;
}

/** Counts text in resumable steps with one encoding's internals. */
export class BpeCounter {
  private readonly regex: RegExp;
  private readonly encoder = new TextEncoder();
  private readonly pairs = new PairRanks();
  readonly rankOf: RankOf;

  constructor(private readonly core: CoreInternals) {
    const flags = core.tokenSplitRegex.flags.includes('g') ? core.tokenSplitRegex.flags : `${core.tokenSplitRegex.flags}g`;
    this.regex = new RegExp(core.tokenSplitRegex.source, flags);
    const ranks = core.bytePairStringRankEncoder;
    this.rankOf = (piece, start, end) => {
      // ASCII pairs (the common case) are looked up without a TextDecoder round trip.
      let key = '';
      for (let i = start; i < end; i++) {
        const byte = piece[i]!;
        if (byte >= 0x80) return core.getBpeRankFromBytes(piece.subarray(start, end)) ?? NO_RANK;
        key += String.fromCharCode(byte);
      }
      return ranks.get(key) ?? NO_RANK;
    };
  }

  /** Starts counting `text`; drive the returned cursor with `advance`. */
  start(text: string): CountCursor {
    return new CountCursor(this, text);
  }

  /** Counts `text` in one go. */
  count(text: string): number {
    const cursor = this.start(text);
    cursor.advance(Number.POSITIVE_INFINITY);
    return cursor.tokens;
  }

  /** @internal The next piece at `from`, or undefined at the end. */
  piece(text: string, from: number): { start: number; end: number } | undefined {
    const regex = this.regex;
    regex.lastIndex = from;
    for (;;) {
      const match = regex.exec(text);
      if (match === null) return undefined;
      const end = match.index + match[0].length;
      if (end > match.index) return { start: match.index, end };
      // An empty match: step over one code point, as String.prototype.matchAll does.
      const code = text.codePointAt(regex.lastIndex) ?? 0;
      regex.lastIndex += code > 0xffff ? 2 : 1;
    }
  }

  /** @internal Tokens of a short piece, or a merge to run for a long one. */
  short(piece: string): number | PieceMerge {
    if (this.core.bytePairStringRankEncoder.has(piece)) return 1;
    if (piece.length < LONG_PIECE) return this.core.bytePairEncode(piece).length;
    return new PieceMerge(this.encoder.encode(piece), this.rankOf, this.pairs);
  }
}

/**
 * A count in progress. `advance(budget)` does about `budget` units of work (characters of ordinary
 * pieces, bytes or merges of a long one) and returns true when the text is fully counted.
 */
export class CountCursor {
  tokens = 0;
  private at = 0;
  private merge: PieceMerge | undefined;
  private done = false;

  constructor(
    private readonly counter: BpeCounter,
    private readonly text: string,
  ) {}

  advance(budget: number): boolean {
    let left = budget;
    while (!this.done) {
      if (this.merge !== undefined) {
        const before = this.merge.work.lookups + this.merge.work.heapOps;
        const finished = this.merge.step(left);
        left -= this.merge.work.lookups + this.merge.work.heapOps - before + 1;
        if (!finished) return false;
        this.tokens += this.merge.tokens;
        this.merge = undefined;
        if (left <= 0) return false;
        continue;
      }
      if (left <= 0) return false;
      const found = this.counter.piece(this.text, this.at);
      if (found === undefined) {
        this.done = true;
        break;
      }
      this.at = found.end;
      const counted = this.counter.short(this.text.slice(found.start, found.end));
      left -= found.end - found.start;
      if (typeof counted === 'number') this.tokens += counted;
      else this.merge = counted;
    }
    return true;
  }
}
