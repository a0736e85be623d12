/**
 * Identifier probes: exact values a later call may need verbatim, one probe per distinct value
 * (its first occurrence).
 *
 * Sources: only what the user typed in real user messages (`typedText`: pasted logs, stack traces,
 * terminal output and diffs left out). The assistant's prose and tool output are never sources: a
 * value the agent found or invented is not one the user gave.
 * - URLs, commit hashes, issue/PR numbers and versions;
 * - exact values (kind 'value'): quoted strings (`…`, "…", '…', “…”, at most 120 characters, a
 *   single plain word only from 5 letters), numbers with units (5 seconds, 70%, 200ms, 10 MB),
 *   `--flag value` (value with a digit or `./:@`, or `--flag=value`), hex colours (#b5bd68, and
 *   six bare hex digits), `@path` mentions, paths and file names (`docs/theme.md`, `theme.ts`),
 *   code symbols (snake_case `mia_li_3668`, camelCase `setTheme`) and codes (`HAT136`), booking and
 *   reservation codes (six capitals and digits with both, `ZFA04Y`, `4WQ150`; six capitals alone
 *   only right after "reservation", "booking", "confirmation" or "code": `booking code is HATHAT`),
 *   and numbers of 7 to 19 digits (card, account and order numbers: `Gift Card 6276644`).
 * Patterns: commits are 7–40 lowercase hex characters with a digit and a letter, not inside a
 * longer word or a dashed id (UUIDs); issues are `#` plus 1–5 digits (6 digits read as a color);
 * versions are `1.2.3` (no leading zeros, not a 4-digit year first, not part of an IP or a longer
 * dotted run) or `v1.2[.3]`. At most 50 identifiers per entry.
 */
import type { Entry } from '../journal/entry.ts';
import { capped, makeProbe } from './make.ts';
import { normalizeForMatch } from './normalize.ts';
import { realUserText, typedText } from './sources.ts';
import type { Probe } from './types.ts';

const PER_ENTRY = 50;

interface Found {
  kind: 'url' | 'commit' | 'issue' | 'version' | 'value';
  value: string;
  needles: string[][];
}

const URL = /\bhttps?:\/\/[^\s<>"'`]+/g;
const COMMIT = /(?<![\w-])[0-9a-f]{7,40}(?![\w-])/g;
const ISSUE = /(?<![\w&#])#(\d{1,6})(?!\w)/g;
const VERSION = /(?<![\w.])(v?)(\d+)\.(\d+)(?:\.(\d+))?(-[0-9a-z]+(?:\.[0-9a-z]+)*)?(?![\w]|\.\d)/gi;
const HEX_COLOR = /(?<![\w&])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3})(?!\w)/gi;
const BARE_HEX = /(?<![\w#.,-])[0-9a-f]{6}(?![\w-]|[.,]\d)/gi;
const QUOTED = /`([^`\n]{1,120})`|"([^"\n]{1,120})"|“([^”\n]{1,120})”|(?<![\w])'([^'\n]{1,120})'(?!\w)/g;
const UNIT = /(?<![\w.])\d+(?:\.\d+)?\s?(?:%|ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|px|em|rem|pt|[kmgt]i?b|k|tokens?|chars?|characters?|lines?|bytes?|x|fps|rpm)(?![\w%])/gi;
const FLAG = /(?<![\w-])(--[a-z][\w-]*)(?:=(\S+)|\s+([\w./:@~%+-]+))/gi;
const MENTION = /(?<![\w])@([\w.-]+\/[\w./-]+|[\w-]+\.[a-z]\w*)/gi;
/** A path or file name: `docs/theme.md`, `.pi/agent/themes`, `theme.ts`, `Theme.fg/bg`. */
const PATH = /(?<![\w@/.~-])(?:~\/|\.{1,2}\/|\.(?=[a-z]))?(?:[\w-]+\/)*[\w-]+(?:\.[a-z][\w]{0,7})?(?:\/[\w-]+(?:\.[a-z][\w]{0,7})?)*(?![\w/-])/gi;
/** Code symbols: snake_case (`mia_li_3668`, `_generate_html`), camelCase (`setTheme`), codes (`HAT136`). */
const SYMBOL = /(?<![\w./-])(?:_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+_*|_[a-z][a-z0-9_]*|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z]{2,}\d{2,}[A-Z\d]*)(?![\w/-]|\.\w)/g;

/** A booking or reservation code: six capitals and digits, at least one of each (`ZFA04Y`, `JG7FMM`). */
const BOOKING_CODE = /(?<![\w./-])(?=[A-Z\d]{0,5}\d)(?=[A-Z\d]{0,5}[A-Z])[A-Z\d]{6}(?![\w/-]|\.\w)/g;
/** Six capitals alone are a code only when named as one: "reservation HATHAT", "booking code is ABCDEF". */
const NAMED_CODE = /\b(?:reservation|booking|confirmation|locator|pnr|code)s?(?:\s+(?:id|number|code|no\.?|#))?(?:\s+(?:is|was))?\s*[:#=]?\s*([A-Z]{6})(?![\w/-])/gi;

/** A card, account or order number: 7 to 19 digits on their own (not a decimal, time or longer run). */
const LONG_NUMBER = /(?<![\w.,:/-])\d{7,19}(?![\w/-]|[.,:]\d)/g;

/** Removes trailing sentence punctuation (and a closing bracket without its opener) from a URL. */
function trimUrl(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (last === undefined) break;
    if ('.,;:!?*'.includes(last)) end--;
    else if (last === ')' && !url.slice(0, end).includes('(')) end--;
    else if (last === ']' && !url.slice(0, end).includes('[')) end--;
    else break;
  }
  return url.slice(0, end);
}

/** URLs, commits, issues and versions of a text (in that order of kinds, each in text order). */
export function referenceIdentifiers(raw: string): Found[] {
  const found: Found[] = [];
  const capText = capped(raw);
  for (const match of capText.matchAll(URL)) {
    const url = trimUrl(match[0]).slice(0, 500);
    if (url.length > 10) found.push({ kind: 'url', value: url, needles: [[normalizeForMatch(url)]] });
  }
  // URLs blanked out so their hex segments and version-like parts are not read again.
  const text = capText.replace(URL, (url) => ' '.repeat(url.length));
  for (const match of text.matchAll(COMMIT)) {
    const hash = match[0];
    if (!/\d/.test(hash) || !/[a-f]/.test(hash) || text[match.index - 1] === '#' || /0x$/i.test(text.slice(Math.max(0, match.index - 2), match.index))) continue;
    found.push({ kind: 'commit', value: hash, needles: hash.length > 7 ? [[hash], [hash.slice(0, 7)]] : [[hash]] });
  }
  for (const match of text.matchAll(ISSUE)) {
    if (match[1]!.length > 5) continue;
    found.push({ kind: 'issue', value: match[0], needles: [[match[0]]] });
  }
  for (const match of text.matchAll(VERSION)) {
    const [, v, major, minor, patch, pre] = match;
    if (patch === undefined && !v) continue;
    const parts = [major!, minor!, ...(patch === undefined ? [] : [patch])];
    if (parts.some((part) => part.length > 1 && part.startsWith('0')) || (major!.length === 4 && Number(major) >= 1900)) continue;
    const bare = `${parts.join('.')}${pre ?? ''}`.toLowerCase();
    found.push({ kind: 'version', value: match[0], needles: [[bare], [`v${bare}`]] });
  }
  return found;
}

/** Exact values of a user's text (see the module comment). */
export function userValues(raw: string): Found[] {
  const text = capped(raw);
  const found: Found[] = [];
  const add = (value: string): void => {
    const trimmed = value.trim();
    const needle = normalizeForMatch(trimmed);
    if (needle.length >= 2 && needle.length <= 200) found.push({ kind: 'value', value: trimmed, needles: [[needle]] });
  };
  for (const match of text.matchAll(QUOTED)) {
    const value = match[1] ?? match[2] ?? match[3] ?? match[4] ?? '';
    // A short plain word in quotes ("Text") is too common to check for.
    if (value.trim().length > 0 && value.trim() === value && (value.length >= 5 || /[^\p{L}]/u.test(value))) add(value);
  }
  for (const match of text.matchAll(HEX_COLOR)) if (!/^#\d{1,5}$/.test(match[0])) add(match[0]);
  // Six hex digits on their own are a colour or an id (343541, 8abeb7), never a plain count.
  for (const match of text.matchAll(BARE_HEX)) add(match[0]);
  for (const match of text.matchAll(UNIT)) add(match[0]);
  for (const match of text.matchAll(FLAG)) {
    const value = match[2] ?? match[3] ?? '';
    if (match[2] !== undefined || /[\d./:@]/.test(value)) {
      const flag = normalizeForMatch(match[1]!);
      const normalizedValue = normalizeForMatch(value);
      if (normalizedValue.length > 0) found.push({ kind: 'value', value: `${match[1]} ${value}`, needles: [[flag, normalizedValue]] });
    }
  }
  for (const match of text.matchAll(MENTION)) add(match[1]!);
  for (const match of text.matchAll(PATH)) {
    const value = match[0];
    // A path has a slash or a file extension; "e.g." and "v1.2" are not files, URLs were read already.
    if (!/\//.test(value) && !/^\.?[\w-]{2,}\.[a-z][a-z0-9]{0,7}$/i.test(value)) continue;
    if (/^(?:e\.g|i\.e|etc|vs|w\.t\.f|n\/a|and\/or|https?:)/i.test(value) || /^\d/.test(value) || /^[\d./]+$/.test(value)) continue;
    add(value);
  }
  for (const match of text.matchAll(SYMBOL)) add(match[0]);
  for (const match of text.matchAll(BOOKING_CODE)) add(match[0]);
  for (const match of text.matchAll(LONG_NUMBER)) add(match[0]);
  for (const match of text.matchAll(NAMED_CODE)) if (/^[A-Z]{6}$/.test(match[1]!)) add(match[1]!);
  return found;
}

/** Identifier probes of the entries (see the module comment), one per distinct value. */
export function identifierProbes(entries: readonly Entry[]): Probe[] {
  const probes: Probe[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const found: Found[] = [];
    const user = realUserText(entry);
    if (user === undefined) return;
    const typed = typedText(user);
    found.push(...referenceIdentifiers(typed), ...userValues(typed));
    let count = 0;
    for (const item of found) {
      if (count >= PER_ENTRY) break;
      const key = item.needles[0]!.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      count++;
      probes.push(makeProbe('identifier', item.kind, item.value, { entry, index }, item.needles));
    }
  });
  return probes;
}
