/**
 * Token counters: two exact BPE tokenizers (o200k_base, cl100k_base via gpt-tokenizer, loaded lazily)
 * and three cheap estimators (chars/4, len/3, chars) that mirror what seed agents use.
 */
import { BpeCounter, coreInternals } from './bpe-count.ts';

export type CounterId = 'o200k' | 'cl100k' | 'chars4' | 'len3' | 'chars';
export type ExactCounterId = 'o200k' | 'cl100k';
export type EstimatorId = 'chars4' | 'len3' | 'chars';

export interface TokenCounter {
  readonly id: CounterId;
  /** Name shown in the UI and reports ("o200k_base", "chars/4", ...). */
  readonly label: string;
  /** True for real tokenizers; false for arithmetic estimates. */
  readonly exact: boolean;
  /** Tokens (or characters, for `chars`) in `text`. Never throws on special-token text. */
  count(text: string): number;
  /** What one image weighs, in this counter's unit (tokens; characters for `chars`). */
  readonly imageTokens: number;
  /**
   * Starts a count that can be done in slices (see `TextCount`); the exact counters have it, so a long
   * text never blocks the worker for long. Without it, `count` is cheap enough to call whole.
   */
  start?(text: string): TextCount;
}

/** A count in progress: `advance(budget)` does about `budget` units of work, true once `tokens` is final. */
export interface TextCount {
  tokens: number;
  advance(budget: number): boolean;
}

export const COUNTER_IDS: readonly CounterId[] = ['o200k', 'cl100k', 'chars4', 'len3', 'chars'];

export const COUNTER_LABELS: Readonly<Record<CounterId, string>> = {
  o200k: 'o200k_base',
  cl100k: 'cl100k_base',
  chars4: 'chars/4',
  len3: 'len/3',
  chars: 'chars',
};

/**
 * Weight of one image per counter. 1200 tokens is pi's estimate; len/3 weighs 4800 characters / 3;
 * `chars` counts an image as 4800 characters (1200 tokens at 4 characters per token).
 */
export const IMAGE_TOKENS: Readonly<Record<CounterId, number>> = {
  o200k: 1200,
  cl100k: 1200,
  chars4: 1200,
  len3: 1600,
  chars: 4800,
};

const ALIASES: Readonly<Record<string, CounterId>> = {
  o200k: 'o200k',
  o200k_base: 'o200k',
  cl100k: 'cl100k',
  cl100k_base: 'cl100k',
  chars4: 'chars4',
  'chars/4': 'chars4',
  len3: 'len3',
  'len/3': 'len3',
  chars: 'chars',
};

/** Parses a counter name as typed on a command line or stored in settings (case-insensitive). */
export function parseCounterId(s: string): CounterId {
  const id = ALIASES[s.trim().toLowerCase()];
  if (id === undefined) {
    throw new Error(
      `Unknown token counter "${s}": use one of ${COUNTER_IDS.join(', ')} (also accepted: o200k_base, cl100k_base, chars/4, len/3)`,
    );
  }
  return id;
}

export function isExactCounterId(id: CounterId): id is ExactCounterId {
  return id === 'o200k' || id === 'cl100k';
}

/** Number of Unicode code points (what Python's `len` returns); a lone surrogate counts as one. */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const ESTIMATORS: Readonly<Record<EstimatorId, TokenCounter>> = {
  // pi: Math.ceil(text.length / 4) on JavaScript (UTF-16) length.
  chars4: estimator('chars4', (text) => Math.ceil(text.length / 4)),
  // layered: len(input) // 3 on Python (code point) length.
  len3: estimator('len3', (text) => Math.floor(codePointLength(text) / 3)),
  chars: estimator('chars', codePointLength),
};

function estimator(id: EstimatorId, count: (text: string) => number): TokenCounter {
  return Object.freeze({ id, label: COUNTER_LABELS[id], exact: false, count, imageTokens: IMAGE_TOKENS[id] });
}

/** One of the three arithmetic estimators, synchronously. */
export function getEstimator(id: EstimatorId): TokenCounter {
  const counter = ESTIMATORS[id];
  if (counter === undefined) throw new Error(`"${String(id)}" is not an estimator; use getCounter for exact counters`);
  return counter;
}

/** The subset of a gpt-tokenizer `encoding/*` module this layer uses. */
export interface EncodingModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  setMergeCacheSize(size: number): void;
  clearMergeCache(): void;
  default: unknown;
}

/**
 * Special-token text (`<|endoftext|>`, `<|im_start|>`, ...) is ordinary text in a transcript. By default
 * gpt-tokenizer throws on it; an empty `disallowedSpecial` (with `allowedSpecial` unset) makes it
 * tokenize as plain text, exactly like tiktoken's `encode(text, allowed_special=(), disallowed_special=())`.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Merge-cache entries (distinct multi-token BPE pieces) kept before the cache is cleared.
 * Default 100 000, gpt-tokenizer's own default capacity. Unit: cache entries (~250 bytes each).
 */
export const MERGE_CACHE_LIMIT = 100_000;

/**
 * Keeps gpt-tokenizer's merge cache from ever evicting; returns a hook to call after each count.
 *
 * Why: the cache is a Map used as an LRU that evicts with `map.delete(map.keys().next().value)`. In V8
 * that walks every deleted slot at the head of the table, so once the cache is full each insert costs
 * ~0.1 ms (measured: 200k FIFO evictions on a 100k Map take 20-27 s). On a 12 MB mix (8 MB of real
 * source/markdown/JSON + 300k random identifiers, 254k distinct pieces) cl100k re-counts ran at
 * 0.2-0.5 MB/s with the default cache, 0.9-1.5 MB/s with the cache off (setMergeCacheSize(0)), and
 * 1.5-2.1 MB/s with this guard; on the 8 MB realistic part alone (37k distinct pieces, never full)
 * warm re-counts ran at 6-9 MB/s with the cache vs ~2 MB/s without, so the cache stays on.
 *
 * What: when the installed version exposes its cache Map (gpt-tokenizer 4.0: the instance field
 * `bytePairEncodingCoreProcessor.mergeCache`), the library limit is lifted so it never evicts and the
 * whole cache is cleared (Map.clear() is cheap and drops the deleted slots) once it holds `limit`
 * entries. Otherwise the library keeps `limit` as its capacity and the cache is cleared after every
 * 2 x `limit` counted tokens: a cached piece is at least two tokens, so it cannot fill up in between.
 * Clearing never changes counts, only speed. Chunking text is not an option: it changes counts.
 */
export function guardMergeCache(mod: EncodingModule, limit: number = MERGE_CACHE_LIMIT): (tokens: number) => void {
  const core = (mod.default as { bytePairEncodingCoreProcessor?: { mergeCache?: unknown } } | null)
    ?.bytePairEncodingCoreProcessor;
  if (core !== undefined && core.mergeCache instanceof Map) {
    mod.setMergeCacheSize(Number.MAX_SAFE_INTEGER);
    return () => {
      const cache = core.mergeCache;
      if (cache instanceof Map && cache.size >= limit) mod.clearMergeCache();
    };
  }
  mod.setMergeCacheSize(limit);
  let since = 0;
  return (tokens) => {
    since += tokens;
    if (since >= 2 * limit) {
      since = 0;
      mod.clearMergeCache();
    }
  };
}

/**
 * Wraps an encoding module as a counter; exported for tests (use `getCounter`). Counting goes through
 * `BpeCounter` (same regex, ranks and merge order as gpt-tokenizer, linear-ish on long runs, in
 * slices); only if this gpt-tokenizer version hides its internals does it fall back to `countTokens`.
 */
export function exactCounter(id: ExactCounterId, mod: EncodingModule, mergeCacheLimit: number = MERGE_CACHE_LIMIT): TokenCounter {
  const afterCount = guardMergeCache(mod, mergeCacheLimit);
  const core = coreInternals(mod);
  const bpe = core === undefined ? undefined : new BpeCounter(core);
  const countWhole = (text: string): number => {
    if (text.length === 0) return 0;
    const tokens = bpe === undefined ? mod.countTokens(text, PLAIN_TEXT) : bpe.count(text);
    afterCount(tokens);
    return tokens;
  };
  return Object.freeze({
    id,
    label: COUNTER_LABELS[id],
    exact: true,
    imageTokens: IMAGE_TOKENS[id],
    count: countWhole,
    start(text: string): TextCount {
      if (bpe === undefined) return wholeCount(text, countWhole);
      const cursor = bpe.start(text);
      return {
        get tokens() {
          return cursor.tokens;
        },
        advance(budget: number): boolean {
          const done = cursor.advance(budget);
          if (done) afterCount(cursor.tokens);
          return done;
        },
      };
    },
  });
}

/** A `TextCount` for a counter without slices: the whole text at the first `advance`. */
export function wholeCount(text: string, count: (text: string) => number): TextCount {
  let tokens = 0;
  let done = false;
  return {
    get tokens() {
      return tokens;
    },
    advance(): boolean {
      if (!done) tokens = count(text);
      done = true;
      return true;
    },
  };
}

// Dynamic imports: each rank table is 1-2.5 MB of JavaScript, loaded only when first asked for.
const LOADERS: Readonly<Record<ExactCounterId, () => Promise<EncodingModule>>> = {
  o200k: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k: () => import('gpt-tokenizer/encoding/cl100k_base'),
};

const loading = new Map<ExactCounterId, Promise<TokenCounter>>();

/** Any counter; exact ones load their rank table on first use and are shared afterwards. */
export function getCounter(id: CounterId): Promise<TokenCounter> {
  if (!isExactCounterId(id)) return Promise.resolve(getEstimator(id));
  let pending = loading.get(id);
  if (pending === undefined) {
    pending = LOADERS[id]().then(
      (mod) => exactCounter(id, mod),
      (error: unknown) => {
        loading.delete(id);
        throw error;
      },
    );
    loading.set(id, pending);
  }
  return pending;
}
