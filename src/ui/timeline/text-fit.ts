/**
 * Cached title truncation for the canvas: `truncateToFit` measures up to a dozen prefixes per
 * block, and measuring text is the costliest part of a frame with hundreds of blocks. Widths are
 * cached per string and results per (text, whole-pixel width), so a pan at one zoom measures
 * nothing new.
 */
import { truncateToFit } from './geometry.ts';

/** Entries kept per cache before it is cleared (a crude bound; a frame needs a few thousand). Default 20,000. */
export const TEXT_FIT_CACHE_LIMIT = 20_000;

export interface TextFitter {
  /** The longest prefix of `text` (with an ellipsis) that fits `maxWidth` px; '' if nothing does. */
  fit: (text: string, maxWidth: number) => string;
  /** Number of calls to the underlying measure so far (for tests and benchmarks). */
  measured: () => number;
}

/**
 * A truncation cache for one font. `measure` is read at call time (a canvas context's
 * measureText, with the font already set); widths are floored to whole pixels, so a cached result
 * always fits.
 */
export function createTextFitter(measure: (s: string) => number, limit = TEXT_FIT_CACHE_LIMIT): TextFitter {
  const widths = new Map<string, number>();
  const results = new Map<string, string>();
  let calls = 0;
  const width = (s: string) => {
    let w = widths.get(s);
    if (w === undefined) {
      if (widths.size >= limit) widths.clear();
      calls++;
      w = measure(s);
      widths.set(s, w);
    }
    return w;
  };
  return {
    fit(text, maxWidth) {
      const px = Math.floor(maxWidth);
      const key = `${px}\u0000${text}`;
      let result = results.get(key);
      if (result === undefined) {
        if (results.size >= limit) results.clear();
        result = truncateToFit(text, px, width);
        results.set(key, result);
      }
      return result;
    },
    measured: () => calls,
  };
}
