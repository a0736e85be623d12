/**
 * Clipping for summary text a person reads: cuts fall at a sentence end or between words (a hard
 * cut only when there is no space to cut at, never inside a surrogate pair), and a clip in the
 * middle says how much it left out (`… [412 chars omitted] …`). Work is bounded by the kept length,
 * so a 100k-character token costs no more than a short line.
 */

/** One line: whitespace runs (newlines included) collapsed to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The marker a middle clip puts where text was left out. */
export function omittedMarker(chars: number): string {
  return ` … [${chars} chars omitted] … `;
}

/** Below this many characters of kept text a count is noise: the clip ends with a plain `…`. */
const MIN_COUNTED_KEEP = 24;
/**
 * How far (as a share of the kept length) a cut may move to reach a sentence end / a space. Prose
 * has a space every few characters; the reach only matters inside a long token (a path, base64).
 */
const SENTENCE_REACH = 0.4;
const WORD_REACH = 0.5;
const TITLE_WORD_REACH = 0.75;

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `index` moved back when it would split a surrogate pair. */
export function charBoundary(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  return isHigh(text.charCodeAt(index - 1)) && isLow(text.charCodeAt(index)) ? index - 1 : index;
}

const SENTENCE_END = /[.!?]/;
const CJK_END = /[。！？；]/;

/** Inside a long token (a path, a URL, a command argument) these end a part: `a/b`, `x::y`, `k=v`. */
const SEPARATOR = /[/\\:,;=&|?#]/;

/**
 * Where a head of at most `max` characters ends: after a sentence, else before a space, else after
 * a separator inside a long token, else before the last space at all; at `max` (a character
 * boundary) only when the head has no space. `wordReach` is how far back (share of `max`) the
 * nearer boundaries are looked for.
 */
export function headEnd(text: string, max: number, wordReach = WORD_REACH): number {
  if (text.length <= max) return text.length;
  const sentenceFloor = Math.floor(max * (1 - SENTENCE_REACH));
  for (let i = max; i > sentenceFloor; i--) {
    const prev = text[i - 1] ?? '';
    if (CJK_END.test(prev) || (SENTENCE_END.test(prev) && /\s/.test(text[i] ?? ''))) return i;
  }
  const wordFloor = Math.floor(max * (1 - wordReach));
  for (let i = max; i > wordFloor; i--) if (/\s/.test(text[i] ?? '')) return i;
  for (let i = max; i > wordFloor; i--) if (SEPARATOR.test(text[i - 1] ?? '') && /[^\s/\\:]/.test(text[i] ?? '')) return i;
  for (let i = wordFloor; i > 0; i--) if (/\s/.test(text[i] ?? '')) return i;
  return charBoundary(text, max);
}

/**
 * Where a tail of at most `max` characters starts: at a sentence, else after a space, else at a
 * separator inside a long token, else after the first space at all; -1 when the tail would start
 * inside a word.
 */
export function tailStart(text: string, max: number): number {
  if (text.length <= max) return 0;
  const first = text.length - max;
  const sentenceCeil = first + Math.floor(max * SENTENCE_REACH);
  for (let i = first; i < sentenceCeil; i++) {
    const prev = text[i - 1] ?? '';
    if (CJK_END.test(prev) || (SENTENCE_END.test(text[i - 2] ?? '') && /\s/.test(prev) && /\S/.test(text[i] ?? ''))) return i;
  }
  const wordCeil = first + Math.floor(max * WORD_REACH);
  for (let i = first; i < wordCeil; i++) if (/\s/.test(text[i - 1] ?? '') && /\S/.test(text[i] ?? '')) return i;
  for (let i = first; i < wordCeil; i++) if (SEPARATOR.test(text[i] ?? '') && /[^\s/\\:]/.test(text[i - 1] ?? '')) return i;
  for (let i = wordCeil; i < text.length; i++) if (/\s/.test(text[i - 1] ?? '') && /\S/.test(text[i] ?? '')) return i;
  return -1;
}

/**
 * The start of a line, at most `max` characters with the `…` it ends with, cut between words.
 * For titles and labels, where a count of what was left out would be noise.
 */
export function clipWords(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  if (max <= 1) return line.slice(0, charBoundary(line, Math.max(0, max)));
  // A title reads better one word shorter than cut inside a long word (a path, an identifier).
  const head = line.slice(0, headEnd(line, max - 1, TITLE_WORD_REACH)).replace(/[\s,;:–—-]+$/u, '');
  return `${head}…`;
}

/**
 * A single line of at most `max` characters: whole when it fits, else its start and end cut at
 * sentence or word boundaries around a marker that counts the characters left out. Too short a
 * `max` for a useful count gives the start and a plain `…` (still at most `max`).
 */
export function clipLine(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  const markerLength = omittedMarker(line.length).length;
  const keep = max - markerLength;
  if (keep < MIN_COUNTED_KEEP) return clipWords(line, max);
  const headChars = Math.ceil(keep * 0.7);
  const start = tailStart(line, keep - headChars);
  // No word to start the tail at: the start alone, with all the room.
  if (start < 0) return clipHead(line, max);
  const head = line.slice(0, headEnd(line, headChars)).trimEnd();
  const tail = line.slice(start).trimStart();
  return `${head}${omittedMarker(line.length - head.length - tail.length)}${tail}`;
}

/**
 * The start of a text, at most `max` characters: cut after a sentence or between words, with the
 * count of what was left out (`… [N chars omitted]`). For text whose beginning is what matters.
 */
export function clipHead(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  const suffix = (n: number): string => ` … [${n} chars omitted]`;
  const keep = max - suffix(line.length).length;
  if (keep < MIN_COUNTED_KEEP) return clipWords(line, max);
  const head = line.slice(0, headEnd(line, keep)).trimEnd();
  return `${head}${suffix(line.length - head.length)}`;
}
