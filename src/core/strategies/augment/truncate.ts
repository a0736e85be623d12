/**
 * Augment's second truncation `zee` (seed 000 §4.3, A4) of the head before it goes to the
 * summarizer: the head is cut into segments of a third of 800,000 characters; with four segment
 * starts or more, only the history from segment `2 * floor((n - 2) / 2)` on is sent.
 */

/** Characters the summarizer may be sent, in all (`P6r`). */
export const SUMMARIZER_INPUT_CHARS = 800_000;

export interface Truncation {
  /** Index of the first item kept. */
  start: number;
  /** Start index of every segment, as the original records them (a leading oversized item repeats 0). */
  segments: number[];
  /** The segment the kept part starts at, or undefined when everything is kept (fewer than 4 segments). */
  startSegment?: number;
  segmentSize: number;
}

export function truncateHead(sizes: readonly number[], total: number = SUMMARIZER_INPUT_CHARS): Truncation {
  const segmentSize = total / 3;
  const segments = [0];
  let current = 0;
  sizes.forEach((size, i) => {
    if (current + size > segmentSize) {
      segments.push(i);
      current = 0;
    }
    current += size;
  });
  if (segments.length < 4) return { start: 0, segments, segmentSize };
  const startSegment = 2 * Math.floor((segments.length - 2) / 2);
  return { start: segments[startSegment]!, segments, startSegment, segmentSize };
}
