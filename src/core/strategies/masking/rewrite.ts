/**
 * Rewriting tool blocks for the masking and clearing strategies: a tool result's content becomes a
 * short placeholder, or a call's input a marker, in a NEW entry with the same id and pairing keys,
 * so a call and its result always stay together and the journal is never touched.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import { blockImages, blockText, type Block, type Entry } from '../../journal/entry.ts';
import type { TokenCounter } from '../../tokens/counters.ts';

// The replay asks a trigger before every model call: counting the same (immutable) journal block
// or the same short placeholder again each time would make a replay quadratic in text size.
const blockMemo = new WeakMap<TokenCounter, WeakMap<Block, number>>();
const textMemo = new WeakMap<TokenCounter, Map<string, number>>();
const TEXT_MEMO_LIMIT = 20_000;

/** Tokens of one block as `countEntry` counts it (text plus images), memoized per block object. */
export function blockTokens(block: Block, counter: TokenCounter): number {
  let memo = blockMemo.get(counter);
  if (!memo) blockMemo.set(counter, (memo = new WeakMap()));
  let n = memo.get(block);
  if (n === undefined) {
    const text = blockText(block);
    n = (text.length > 0 ? counter.count(text) : 0) + blockImages(block) * counter.imageTokens;
    memo.set(block, n);
  }
  return n;
}

/** Tokens of a short made text (a placeholder), memoized by its text. */
export function textTokens(text: string, counter: TokenCounter): number {
  let memo = textMemo.get(counter);
  if (!memo) textMemo.set(counter, (memo = new Map()));
  let n = memo.get(text);
  if (n === undefined) {
    if (memo.size >= TEXT_MEMO_LIMIT) memo.clear();
    n = text.length > 0 ? counter.count(text) : 0;
    memo.set(text, n);
  }
  return n;
}

/** Tokens of a block this module made (text-only placeholders: no images). */
function madeTokens(block: Block, counter: TokenCounter): number {
  return textTokens(blockText(block), counter) + blockImages(block) * counter.imageTokens;
}

/** One entry with some blocks replaced. */
export interface Rewrite {
  index: number;
  entry: Entry;
  tokensBefore: number;
  tokensAfter: number;
  /** The replacement blocks' text, as the model sees it. */
  texts: string[];
}

/**
 * Replaces the blocks `replace` answers for (given the block and a thunk for its own tokens) in a
 * new entry; undefined when no block changes. The entry's own count comes from `input.tokens`, and
 * a single-block entry's block tokens are that count, so the common case counts nothing big.
 */
export function rewriteEntry(
  input: CompactionInput,
  index: number,
  replace: (block: Block, ownTokens: () => number) => Block | undefined,
  /**
   * Names what `replace` does to this entry (a closure made per plan cannot be the memo key):
   * with it, the same entry rewritten the same way is reused. Default: the function itself.
   */
  key: string | Replace = replace,
): Rewrite | undefined {
  const entry = input.entries[index]!;
  const before = input.tokens.countAt(index);
  // A replay re-plans at nearly every call: the same entry rewritten the same way gives the same rewrite.
  let byEntry = rewriteMemo.get(input.counter);
  if (!byEntry) rewriteMemo.set(input.counter, (byEntry = new WeakMap()));
  let byKey = byEntry.get(entry);
  if (!byKey) byEntry.set(entry, (byKey = new Map()));
  const memo = byKey.get(key);
  if (memo !== undefined && memo.tokensBefore === before) return memo.rewrite && { ...memo.rewrite, index };
  const rewrite = rewriteUncached(input, index, entry, before, replace);
  if (byKey.size > 8) byKey.clear();
  byKey.set(key, { tokensBefore: before, rewrite });
  return rewrite;
}

type Replace = (block: Block, ownTokens: () => number) => Block | undefined;
const rewriteMemo = new WeakMap<TokenCounter, WeakMap<Entry, Map<string | Replace, { tokensBefore: number; rewrite: Rewrite | undefined }>>>();

function rewriteUncached(input: CompactionInput, index: number, entry: Entry, before: number, replace: Replace): Rewrite | undefined {
  const single = entry.blocks.length === 1;
  let delta = 0;
  const texts: string[] = [];
  let changed = false;
  const blocks = entry.blocks.map((block) => {
    const own = () => (single ? before : blockTokens(block, input.counter));
    const next = replace(block, own);
    if (next === undefined) return block;
    changed = true;
    delta += madeTokens(next, input.counter) - own();
    texts.push(blockText(next));
    return next;
  });
  if (!changed) return undefined;
  return { index, entry: { ...entry, blocks }, tokensBefore: before, tokensAfter: before + delta, texts };
}

/** Tokens a set of rewrites saves against the journal entries they replace. */
export function savedTokens(rewrites: Iterable<Rewrite>): number {
  let n = 0;
  for (const r of rewrites) n += r.tokensBefore - r.tokensAfter;
  return n;
}

/** Whether the user pinned the entry (pinned entries are never masked, cleared or summarized). */
export function isPinned(input: CompactionInput, entry: Entry): boolean {
  return entry.flags?.pinned === true || input.pinned?.has(entry.id) === true;
}

/** Index of an entry id named in the previous run's state, when it came from `strategy` and is on this branch. */
export function previousIndex(input: CompactionInput, strategy: string, key: string): { index: number; note?: string } {
  const prev = input.previous;
  if (!prev || prev.strategy !== strategy) return { index: 0 };
  const id = prev.state?.[key];
  if (typeof id !== 'string') return { index: 0 };
  // Ids are unique on a branch, and the window started near the end: look from there.
  let index = input.entries.length - 1;
  while (index >= 0 && input.entries[index]!.id !== id) index--;
  if (index >= 0) return { index };
  return { index: 0, note: `The previous run's window started at ${id}, which is not on this branch: every older tool output is treated as not yet masked.` };
}
