/**
 * Augment's head/tail split `Wtt` (seed 000 §4.1, A3): walk the history newest first; an exchange
 * joins the tail while the running total stays under the tail size, or while the tail has fewer
 * than `minTailExchanges`; everything older is the head, to be summarized. When the whole history
 * is under the threshold nothing is summarized.
 */

export interface Split<T> {
  /** Oldest first. Empty when there is nothing to summarize. */
  head: T[];
  /** Oldest first. */
  tail: T[];
  headSize: number;
  tailSize: number;
  /** Size of the whole history. */
  totalSize: number;
}

export function splitHistory<T>(
  history: readonly T[],
  sizeOf: (item: T) => number,
  tailSizeToExclude: number,
  threshold: number,
  minTailExchanges: number,
): Split<T> {
  const head: T[] = [];
  const tail: T[] = [];
  let total = 0;
  let headSize = 0;
  let tailSize = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    const size = sizeOf(item);
    if (total + size < tailSizeToExclude || tail.length < minTailExchanges) {
      tail.push(item);
      tailSize += size;
    } else {
      head.push(item);
      headSize += size;
    }
    total += size;
  }
  if (total < threshold) {
    tail.push(...head);
    return { head: [], tail: tail.reverse(), headSize: 0, tailSize: total, totalSize: total };
  }
  return { head: head.reverse(), tail: tail.reverse(), headSize, tailSize, totalSize: total };
}
