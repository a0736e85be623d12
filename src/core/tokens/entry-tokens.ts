/**
 * Counts entries with one token counter: one entry split by block kind, and a whole journal as
 * per-entry totals plus sums by block kind and by role.
 */
import { BLOCK_TYPES, blockImages, blockText, type BlockType, type Entry, type Role } from '../journal/entry.ts';
import type { TokenCounter } from './counters.ts';

export interface EntryTokens {
  /** Sum of `byKind`. */
  total: number;
  /** Tokens per block type. Every image weight lands in `image`, including images inside tool results. */
  byKind: Record<BlockType, number>;
}

export interface EntriesTokens {
  /** Per-entry totals in journal order. */
  totals: Uint32Array;
  /** Sums over all entries (markers and events included), so `byKind` and `byRole` both sum to the total of `totals`. */
  byKind: Record<BlockType, number>;
  byRole: Record<Role, number>;
}

/** Called with (entries counted, entries in all). */
export type ProgressFn = (done: number, total: number) => void;

/** `onProgress` fires after every this many entries, and once at the end. Default 256. Unit: entries. */
export const PROGRESS_EVERY = 256;

export function emptyByKind(): Record<BlockType, number> {
  return { text: 0, thinking: 0, tool_call: 0, tool_result: 0, image: 0 };
}

export function emptyByRole(): Record<Role, number> {
  return { system: 0, user: 0, assistant: 0, tool: 0, summary: 0 };
}

/**
 * Tokens of one entry: each block's text as `blockText` renders it (a tool call as `name(json)`),
 * counted block by block (so estimators round per block), plus images at `counter.imageTokens`.
 */
export function countEntry(entry: Entry, counter: TokenCounter): EntryTokens {
  const byKind = emptyByKind();
  let total = 0;
  for (const block of entry.blocks) {
    const text = blockText(block);
    const textTokens = text.length > 0 ? counter.count(text) : 0;
    const imageTokens = blockImages(block) * counter.imageTokens;
    byKind[block.type] += textTokens;
    byKind.image += imageTokens;
    total += textTokens + imageTokens;
  }
  return { total, byKind };
}

/** Aggregates per-entry counts produced by `countOne` (a counter, or a cache in front of one). */
export function tallyEntries(
  entries: readonly Entry[],
  countOne: (entry: Entry) => EntryTokens,
  onProgress?: ProgressFn,
): EntriesTokens {
  const totals = new Uint32Array(entries.length);
  const byKind = emptyByKind();
  const byRole = emptyByRole();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const counted = countOne(entry);
    totals[i] = counted.total;
    byRole[entry.role] += counted.total;
    for (const kind of BLOCK_TYPES) byKind[kind] += counted.byKind[kind];
    if (onProgress !== undefined && (i + 1) % PROGRESS_EVERY === 0 && i + 1 < entries.length) {
      onProgress(i + 1, entries.length);
    }
  }
  onProgress?.(entries.length, entries.length);
  return { totals, byKind, byRole };
}

/** Counts a whole journal with one counter. */
export function countEntries(entries: readonly Entry[], counter: TokenCounter, onProgress?: ProgressFn): EntriesTokens {
  return tallyEntries(entries, (entry) => countEntry(entry, counter), onProgress);
}
