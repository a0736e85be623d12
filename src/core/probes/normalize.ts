/**
 * The one text normalization probes and contexts share, so a needle read from the journal and the
 * same words in a summary compare equal: NFKC, lowercase, punctuation to spaces (except the
 * characters that make up paths, URLs and values), whitespace collapsed. Also the small word
 * helpers (content words, crude stems) the categories use to build their needles.
 */

/**
 * Characters kept besides letters, digits, marks and spaces: path and URL characters
 * (`/ . _ - : # @`), plus `% ~ + =` so `70%`, `~/.config` and `--port=8080` survive.
 */
const KEPT = new Set(['/', '.', '_', '-', ':', '#', '@', '%', '~', '+', '=']);

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const SPACE = /\s/u;

/** Whether a (single) character is a letter or digit: the word-boundary test of the matcher. */
export function isWordChar(char: string | undefined): boolean {
  if (char === undefined || char.length === 0) return false;
  const code = char.charCodeAt(0);
  if (code < 0x80) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return LETTER_OR_DIGIT.test(char);
}

/** Normalized text plus, for each of its characters, the offset in the original it came from. */
export interface NormalizedText {
  text: string;
  /** `offsets[i]` is the index in the original of normalized character `i`; length `text.length + 1`. */
  offsets: Uint32Array;
}

/** ASCII codes kept: letters, digits and `KEPT`. */
const ASCII_KEPT = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code);
  ASCII_KEPT[code] = isWordChar(char) || KEPT.has(char) ? 1 : 0;
}

/**
 * Normalizes `text` and records where each normalized character came from. NFKC is applied per
 * cluster (a code point and the combining marks after it), which agrees with whole-string NFKC
 * except for rare Hangul jamo sequences; ASCII takes a fast path (typed arrays, no regex).
 */
export function normalizeWithOffsets(text: string): NormalizedText {
  const n = text.length;
  let codes = new Uint16Array(n + 16);
  let offsets = new Uint32Array(n + 17);
  let length = 0;
  let pendingSpace = false;
  const emit = (code: number, origin: number): void => {
    if (length + 2 >= codes.length) {
      const grownCodes = new Uint16Array(codes.length * 2);
      grownCodes.set(codes);
      codes = grownCodes;
      const grownOffsets = new Uint32Array(offsets.length * 2);
      grownOffsets.set(offsets);
      offsets = grownOffsets;
    }
    if (pendingSpace) {
      codes[length] = 32;
      offsets[length++] = origin;
      pendingSpace = false;
    }
    codes[length] = code;
    offsets[length++] = origin;
  };
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    // ASCII is NFKC-stable unless a combining mark follows it.
    if (code < 0x80 && !(text.charCodeAt(i + 1) >= 0x300)) {
      if (ASCII_KEPT[code] === 1) emit(code >= 65 && code <= 90 ? code + 32 : code, i);
      else pendingSpace = length > 0;
      i++;
      continue;
    }
    const start = i;
    const first = text.codePointAt(i)!;
    i += first > 0xffff ? 2 : 1;
    while (i < n) {
      const cp = text.codePointAt(i)!;
      if (!MARK.test(String.fromCodePoint(cp))) break;
      i += cp > 0xffff ? 2 : 1;
    }
    for (const char of text.slice(start, i).normalize('NFKC').toLowerCase()) {
      const charCode = char.charCodeAt(0);
      const keep = charCode < 0x80 ? ASCII_KEPT[charCode] === 1 : !SPACE.test(char) && (LETTER_OR_DIGIT.test(char) || MARK.test(char) || KEPT.has(char));
      if (!keep) {
        pendingSpace = length > 0;
        continue;
      }
      for (let unit = 0; unit < char.length; unit++) emit(char.charCodeAt(unit), start);
    }
  }
  offsets[length] = n;
  // `apply` takes the typed array as it is; a spread would walk it with an iterator, which cost as
  // much as the whole normalization before it.
  const chunks: string[] = [];
  for (let at = 0; at < length; at += 8192) chunks.push(String.fromCharCode.apply(null, codes.subarray(at, Math.min(length, at + 8192)) as unknown as number[]));
  return { text: chunks.join(''), offsets: offsets.slice(0, length + 1) };
}

/**
 * Lowercase, NFKC, punctuation (other than `/ . _ - : # @ % ~ + =`) turned into spaces,
 * whitespace collapsed and trimmed: "`src/App.tsx`" and "src/app.tsx," both give "src/app.tsx".
 * A trailing `.` or `:` is kept (the matcher's boundaries make it harmless).
 */
export function normalizeForMatch(text: string): string {
  return normalizeWithOffsets(text).text;
}

/**
 * Normalized characters a group of word needles is drawn from: under the matcher's span (400), so
 * the text a probe was read from always matches it.
 */
export const NEEDLE_CHARS = 350;

/** The head of a normalized text that word needles are drawn from: `NEEDLE_CHARS`, cut at a space. */
export function needleSource(normalized: string): string {
  if (normalized.length <= NEEDLE_CHARS) return normalized;
  const cut = normalized.lastIndexOf(' ', NEEDLE_CHARS);
  return normalized.slice(0, cut > 0 ? cut : 0);
}

/** Words that carry no content: dropped from task, constraint and decision needles. */
const STOPWORDS = new Set(
  (
    'a an the and or but if then else so than that this these those there here it its it\'s is are was were be been being am ' +
    'i me my mine we us our you your yours he she they them their his her what which who whom whose when where why how ' +
    'to of in on at by for with from into onto over under about as up down out off again further once also too very just ' +
    'not no nor only own same such both each few more most other some any all can could should would will shall may might must ' +
    'do does did done doing have has had having get gets got getting make makes made let lets let\'s please ok okay yes yeah ' +
    'now still even maybe really actually think thing things something anything everything way like want need needs use used ' +
    'using one two new old sure well right good great thanks thank hey hi hello oh hmm wait dont don\'t doesn didn isn aren ' +
    'won wasn weren shouldn couldn wouldn cant can\'t im i\'m ive i\'ve ill i\'ll id i\'d youre you\'re we\'re weve lets ' +
    'go going gonna gotta look see check try tell give take put keep never always avoid ensure instead rather because while ' +
    'via per etc e.g i.e'
  ).split(' '),
);

/** Narration verbs an agent uses about its own next step: never a needle of a decision. */
const NARRATION = new Set(['examine', 'read', 'run', 'start', 'continue', 'proceed', 'first', 'next', 'then', 'now', 'going', 'will', 'ill']);

/** Whether a normalized token carries content (long enough, not a stopword, not only punctuation). */
export function isContentWord(token: string): boolean {
  if (token.length < 3 || STOPWORDS.has(token) || NARRATION.has(token)) return false;
  return isWordChar(token[0]) || isWordChar(token[token.length - 1]);
}

/** Trims punctuation a token may carry at its ends in prose (`file.`, `:name`, `--`). */
export function trimToken(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && !isWordChar(token[start]) && token[start] !== '#' && token[start] !== '~' && token[start] !== '/' && token[start] !== '-') start++;
  while (end > start && !isWordChar(token[end - 1]) && token[end - 1] !== '/') end--;
  return token.slice(start, end);
}

/**
 * A crude English stem for plain words (letters only), so "links" matches "link" and "replaced"
 * matches "replace": the matcher lets a letters-only needle continue as a longer word.
 */
export function stem(word: string): string {
  if (!/^\p{L}+$/u.test(word)) return word;
  for (const suffix of ['ing', 'ed']) if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length - 1 >= 4) return stemE(word.slice(0, -1));
  return stemE(word);
}

function stemE(word: string): string {
  return word.endsWith('e') && word.length - 1 >= 5 ? word.slice(0, -1) : word;
}

/** How salient a content token is: identifiers (paths, snake_case, dotted, digits) first, then length. */
function salience(token: string): number {
  let score = Math.min(token.length, 20);
  if (/[._/:@#-]/.test(token.slice(1, -1)) || /\d/.test(token)) score += 20;
  return score;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether a character belongs to a script written without spaces between words. */
export function isCjk(char: string | undefined): boolean {
  return char !== undefined && CJK.test(char);
}

/**
 * The content words of a normalized text, most salient first, distinct, at most `limit`, as
 * needles: plain words stemmed, runs of CJK split into chunks of up to 4 characters (no word
 * segmentation is attempted). `drop` removes words that are part of the keyword itself.
 */
export function contentNeedles(normalized: string, limit: number, drop: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>();
  const candidates: Array<{ needle: string; score: number; order: number }> = [];
  let order = 0;
  for (const raw of normalized.split(' ')) {
    if (raw.length === 0) continue;
    const token = trimToken(raw);
    if (token.length === 0 || drop.has(token)) continue;
    if ([...token].some((char) => isCjk(char))) {
      for (const chunk of cjkChunks(token, drop)) {
        if (seen.has(chunk)) continue;
        seen.add(chunk);
        candidates.push({ needle: chunk, score: 10, order: order++ });
      }
      continue;
    }
    if (token.length > 64 || !isContentWord(token)) continue;
    const needle = stem(token);
    if (seen.has(needle)) continue;
    seen.add(needle);
    candidates.push({ needle, score: salience(token), order: order++ });
    if (candidates.length >= 200) break;
  }
  return candidates
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((candidate) => candidate.needle);
}

/** Common single-character particles of Chinese and Japanese, dropped from CJK runs. */
const CJK_PARTICLES = new Set([...'的了吗呢吧啊在是和与或把被就都也还这那个我你他她它们请要不别着过很让给对从用到里上下中为并及其之の、はをがにでとも']);

function cjkChunks(token: string, drop: ReadonlySet<string>): string[] {
  let text = token;
  for (const word of drop) if (word.length > 0) text = text.split(word).join(' ');
  const chunks: string[] = [];
  for (const run of text.split(/[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u)) {
    const chars = [...run].filter((char) => !CJK_PARTICLES.has(char));
    for (let i = 0; i < chars.length; i += 4) {
      const chunk = chars.slice(i, i + 4).join('');
      if (chunk.length >= 2) chunks.push(chunk);
    }
  }
  return chunks;
}
