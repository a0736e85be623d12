/**
 * Checking probes against a context: `prepareContext` normalizes a context once and indexes where
 * its words start; `matchProbe` then finds each needle through that index (cost proportional to
 * the occurrences of its first three characters, never a scan per probe) and looks for one span
 * holding a whole alternative.
 *
 * Matching rules:
 * - A needle matches where a word starts (or, for a needle starting with punctuation such as
 *   `#12` or `--port`, where the preceding character is not a letter or digit), so `test` never
 *   matches inside `latest`. A needle of letters only may run on into a longer word (`link`
 *   matches `links`, stems such as `replac` match `replaced`); any other needle must end where a
 *   word ends (`app.ts` does not match `app.tsx`). Needles in CJK scripts match anywhere.
 * - An alternative matches when all its needles occur within `SPAN_CHARS` normalized characters
 *   (from the start of the first to the end of the last).
 * - Needles found by scan (shorter than three characters, starting with punctuation, CJK) stop
 *   at `MAX_OCCURRENCES`; indexed needles cost one check per indexed word start sharing their
 *   first three characters.
 */
import { isCjk, isWordChar, normalizeWithOffsets } from './normalize.ts';
import type { Probe, ProbeMatch } from './types.ts';

/** Largest distance (normalized characters) over which one alternative's needles may spread. */
export const SPAN_CHARS = 400;

/** Longest span returned, in characters of the original text (longer windows are elided). */
const SHOWN_CHARS = 200;

const MAX_OCCURRENCES = 20_000;

/** A context normalized once, with an index of word starts by their first three characters. */
export interface NormalizedContext {
  original: string;
  normalized: string;
  offsets: Uint32Array;
  starts: Map<string, number[]>;
}

/** Normalizes and indexes a context; linear in its length. */
export function prepareContext(text: string): NormalizedContext {
  const { text: normalized, offsets } = normalizeWithOffsets(text);
  const starts = new Map<string, number[]>();
  let previousWord = false;
  let previousSpace = true;
  for (let i = 0; i < normalized.length; i++) {
    const code = normalized.charCodeAt(i);
    const word = code < 0x80 ? (code >= 48 && code <= 57) || (code >= 97 && code <= 122) : isWordChar(normalized[i]) && !isCjk(normalized[i]);
    const start = previousSpace || (word && !previousWord);
    previousSpace = code === 32;
    previousWord = word;
    if (!start || code === 32 || i + 3 > normalized.length) continue;
    const key = normalized.slice(i, i + 3);
    const list = starts.get(key);
    if (list) list.push(i);
    else starts.set(key, [i]);
  }
  return { original: text, normalized, offsets, starts };
}

const LETTERS_ONLY = /^\p{L}+$/u;

function endsCleanly(context: string, needle: string, end: number): boolean {
  if (LETTERS_ONLY.test(needle)) return true;
  return !(isWordChar(needle[needle.length - 1]) && isWordChar(context[end]) && !isCjk(context[end]));
}

/** Start positions of a needle in the normalized context (see the module comment), ascending. */
export function occurrences(context: NormalizedContext, needle: string): number[] {
  const text = context.normalized;
  const found: number[] = [];
  if (needle.length === 0) return found;
  const first = needle[0];
  if (needle.length >= 3 && isWordChar(first) && !isCjk(first)) {
    // The needle must start where a word starts: exactly the positions the index holds.
    for (const position of context.starts.get(needle.slice(0, 3)) ?? []) {
      if (text.startsWith(needle, position) && endsCleanly(text, needle, position + needle.length)) found.push(position);
    }
    return found;
  }
  // Short needles, needles starting with punctuation, CJK: a plain scan with the boundary checks.
  const cjk = isCjk(first);
  let from = 0;
  while (found.length < MAX_OCCURRENCES) {
    const position = text.indexOf(needle, from);
    if (position < 0) break;
    from = position + 1;
    if (!cjk && position > 0 && isWordChar(text[position - 1]) && !isCjk(text[position - 1])) continue;
    if (!cjk && !endsCleanly(text, needle, position + needle.length)) continue;
    found.push(position);
  }
  return found;
}

interface Hit {
  needle: number;
  start: number;
  end: number;
}

/** The first window where every needle of an alternative occurs within `SPAN_CHARS`, or undefined. */
function findWindow(context: NormalizedContext, needles: readonly string[]): Hit[] | undefined {
  const lists = needles.map((needle) => occurrences(context, needle));
  if (lists.some((list) => list.length === 0)) return undefined;
  if (needles.length === 1) return [{ needle: 0, start: lists[0]![0]!, end: lists[0]![0]! + needles[0]!.length }];
  const events: Hit[] = [];
  lists.forEach((list, needle) => {
    for (const start of list) events.push({ needle, start, end: start + needles[needle]!.length });
  });
  events.sort((a, b) => a.start - b.start || a.needle - b.needle);
  const counts = new Array<number>(needles.length).fill(0);
  let covered = 0;
  let left = 0;
  for (let right = 0; right < events.length; right++) {
    const added = events[right]!;
    if (counts[added.needle] === 0) covered++;
    counts[added.needle] = counts[added.needle]! + 1;
    // Drop events that fall out of the span on the left.
    while (left <= right && added.end - events[left]!.start > SPAN_CHARS) {
      const dropped = events[left]!.needle;
      counts[dropped] = counts[dropped]! - 1;
      if (counts[dropped] === 0) covered--;
      left++;
    }
    if (covered === needles.length) {
      // The latest occurrence of each needle inside the window.
      const chosen = new Map<number, Hit>();
      for (let i = right; i >= left && chosen.size < needles.length; i--) {
        const event = events[i]!;
        if (!chosen.has(event.needle)) chosen.set(event.needle, event);
      }
      return [...chosen.values()].sort((a, b) => a.start - b.start);
    }
  }
  return undefined;
}

/** The original text of the window: whole when short, else the pieces around each needle joined by " … ". */
function spanText(context: NormalizedContext, hits: readonly Hit[]): string {
  const { original, offsets } = context;
  const toOriginal = (hit: Hit): [number, number] => [offsets[hit.start]!, offsets[hit.end] ?? original.length];
  const intervals = hits.map(toOriginal);
  const start = intervals[0]![0];
  const end = Math.max(...intervals.map((interval) => interval[1]));
  const oneLine = (text: string): string => text.replace(/\s+/g, ' ');
  if (end - start <= SHOWN_CHARS) {
    const pad = Math.floor((SHOWN_CHARS - (end - start)) / 2);
    const from = Math.max(0, start - pad);
    const to = Math.min(original.length, end + pad);
    return oneLine(original.slice(from, to)).trim();
  }
  const needleChars = intervals.reduce((sum, [a, b]) => sum + (b - a), 0);
  const pad = Math.max(0, Math.floor((SHOWN_CHARS - needleChars) / (2 * intervals.length)));
  const pieces: Array<[number, number]> = [];
  for (const [a, b] of intervals) {
    const from = Math.max(0, a - pad);
    const to = Math.min(original.length, b + pad);
    const last = pieces[pieces.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else pieces.push([from, to]);
  }
  return pieces.map(([a, b]) => oneLine(original.slice(a, b)).trim()).join(' … ');
}

/** Whether a context still carries a probe: any alternative with all its needles within one span. */
export function matchProbe(probe: Probe, context: NormalizedContext): ProbeMatch {
  for (const alternative of probe.needles) {
    if (alternative.length === 0) continue;
    const hits = findWindow(context, alternative);
    if (hits) return { kept: true, span: spanText(context, hits) };
  }
  return { kept: false };
}
