/**
 * Building a probe: the stable id (category, source entry id, short hash of the normalized text),
 * clipped display text, and the limits every extractor shares.
 */
import type { Entry } from '../journal/entry.ts';
import { normalizeForMatch } from './normalize.ts';
import type { Probe, ProbeCategory } from './types.ts';

/**
 * Characters of one block an extractor reads. Past this, text is ignored (a 1 MB pasted log or a
 * base64 line costs the same as 20k characters). Tool results read the first and last half of it.
 */
export const BLOCK_SCAN_CHARS = 20_000;

/** Longest probe text shown. */
const TEXT_CHARS = 200;

/** The first `BLOCK_SCAN_CHARS` characters of a string. */
export function capped(text: string, limit = BLOCK_SCAN_CHARS): string {
  return text.length > limit ? text.slice(0, limit) : text;
}

/** 32-bit FNV-1a of a string, base 36. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** One line, at most `TEXT_CHARS` characters, with an ellipsis when cut. */
export function clip(text: string, limit = TEXT_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/** Where a probe comes from: the entry and its position in the array given to `extractProbes`. */
export interface Source {
  entry: Entry;
  index: number;
}

export function makeProbe(category: ProbeCategory, kind: string, text: string, source: Source, needles: string[][]): Probe {
  const shown = clip(text);
  return {
    id: `${category}:${source.entry.id}:${shortHash(`${kind}\u0000${normalizeForMatch(shown)}`)}`,
    category,
    kind,
    text: shown,
    entryId: source.entry.id,
    entryIndex: source.index,
    needles: needles.filter((alternative) => alternative.length > 0 && alternative.every((needle) => needle.length > 0)),
  };
}
