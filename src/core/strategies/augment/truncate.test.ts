import { describe, expect, it } from 'vitest';
import { SUMMARIZER_INPUT_CHARS, truncateHead } from './truncate.ts';

describe('truncateHead (zee, seed 000 §4.3)', () => {
  it('reproduces the §4.3 example: 5 segments (4 x 266 KB + 200 KB), keeps from segment 2 (~700 KB)', () => {
    // Two 133,000-char exchanges fill a 266,666.67-char segment; the last segment is 2 x 100,000.
    const sizes = [133_000, 133_000, 133_000, 133_000, 133_000, 133_000, 133_000, 133_000, 100_000, 100_000];
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(total).toBe(1_264_000);
    const t = truncateHead(sizes);
    expect(t.segmentSize).toBeCloseTo(SUMMARIZER_INPUT_CHARS / 3, 6);
    expect(t.segments).toEqual([0, 2, 4, 6, 8]);
    expect(t.startSegment).toBe(2); // 2 * floor((5 - 2) / 2)
    expect(t.start).toBe(4);
    expect(sizes.slice(t.start).reduce((a, b) => a + b, 0)).toBe(732_000);
  });

  it('keeps everything with fewer than 4 segment starts', () => {
    const t = truncateHead([266_000, 266_000, 266_000]);
    expect(t.segments).toEqual([0, 1, 2]);
    expect(t.start).toBe(0);
    expect(t.startSegment).toBeUndefined();
  });

  it('4 segments keep from segment 2; 6 segments from segment 4', () => {
    expect(truncateHead([200_000, 200_000, 200_000, 200_000]).start).toBe(2);
    const six = truncateHead(Array.from({ length: 6 }, () => 200_000));
    expect(six.segments).toEqual([0, 1, 2, 3, 4, 5]);
    expect(six.startSegment).toBe(4);
    expect(six.start).toBe(4);
  });

  it('an oversized first exchange repeats segment start 0, as the original does', () => {
    expect(truncateHead([300_000, 10]).segments).toEqual([0, 0, 1]);
  });
});
