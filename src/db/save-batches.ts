/**
 * How an import's entries are cut into the batches it is saved in: by an estimate of their size as
 * well as by a row cap, so that a batch of a few huge entries (pasted files, long tool outputs) takes
 * about as long to write as a batch of many small ones, and the progress bar and a Cancel are seen
 * about as often through the whole save.
 */

/** Most rows written by one bulkPut. Default 1,000. Unit: rows. */
export const SAVE_BATCH_ROWS = 1000;

/**
 * Estimated size at which a batch is closed (`estimateSize`, about the bytes IndexedDB stores for
 * the rows). Default 500,000: some 50 ms of writing in Chromium on disk. Smaller batches cost no
 * measurable time: Chromium's work is per row, and in an off-the-record profile grows with the rows
 * already in the transaction (`npm run bench`, section 14). Unit: characters.
 */
export const SAVE_BATCH_SIZE = 500_000;

export interface SaveBatchLimits {
  /** Most rows per batch. Default `SAVE_BATCH_ROWS`. */
  rows?: number;
  /** Estimated size at which a batch is closed. Default `SAVE_BATCH_SIZE`. Unit: characters. */
  size?: number;
}

/** Per value that is not a string (a number, a boolean, a key's bookkeeping): a rough constant. Unit: characters. */
const SCALAR_SIZE = 8;

/**
 * A cheap estimate of what a value costs to store: the length of every string in it (keys
 * included) plus a constant per other value. It only reads lengths, so it costs far less than the
 * structured clone IndexedDB makes of the same value.
 */
export function estimateSize(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return SCALAR_SIZE;
  let size = SCALAR_SIZE;
  if (Array.isArray(value)) {
    for (const item of value) size += estimateSize(item);
    return size;
  }
  for (const key in value) {
    size += key.length + estimateSize((value as Record<string, unknown>)[key]);
  }
  return size;
}

/**
 * The end index (exclusive) of each batch, in order; the last is `items.length`. A batch closes
 * once it holds `rows` items or its estimated size reaches `size`; an item larger than `size` on
 * its own is a batch of one.
 */
export function saveBatchEnds(items: readonly unknown[], limits: SaveBatchLimits = {}): number[] {
  const rows = Math.max(1, limits.rows ?? SAVE_BATCH_ROWS);
  const size = Math.max(1, limits.size ?? SAVE_BATCH_SIZE);
  const ends: number[] = [];
  let start = 0;
  let filled = 0;
  for (let i = 0; i < items.length; i++) {
    const item = estimateSize(items[i]);
    // A large item does not join a batch that already holds something: it starts its own.
    if (i > start && filled + item > size) {
      ends.push(i);
      start = i;
      filled = 0;
    }
    filled += item;
    if (i + 1 - start >= rows || filled >= size) {
      ends.push(i + 1);
      start = i + 1;
      filled = 0;
    }
  }
  if (start < items.length) ends.push(items.length);
  return ends;
}
