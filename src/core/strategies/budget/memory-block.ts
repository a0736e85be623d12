/**
 * The optional summary memory block of trimmed history (seed 004 B3): a short marked section,
 * `[历史摘要记忆]` then at most N lines and M characters, whatever the summarizer returned — so it can
 * never take back the room trimming made.
 */
import type { Entry } from '../../journal/entry.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import { countEntry } from '../../tokens/entry-tokens.ts';

/** The seed's fixed marker that opens the block (the query section it injects). */
export const MEMORY_MARKER = '[历史摘要记忆]';

const ELLIPSIS = '…';

/**
 * Tokens the plan sets aside for a block of `maxChars` characters: maxChars/4 for tokenizers and
 * chars/4, maxChars/3 for len/3, maxChars for the `chars` counter. Assemble still counts the real
 * block and shortens it if it weighs more (CJK text does with real tokenizers).
 */
export function memoryReserveTokens(counter: TokenCounter, maxChars: number): number {
  if (counter.id === 'chars') return maxChars;
  if (counter.id === 'len3') return Math.ceil(maxChars / 3);
  return Math.ceil(maxChars / 4);
}

/**
 * The block text from a summarizer's answer: blank lines removed, a marker the summarizer already
 * wrote not repeated, at most `maxLines` lines under the marker, at most `maxChars` code points in
 * all (marker included; a cut line ends with `…`). Undefined when the answer has no text.
 */
export function capMemoryBlock(raw: string, maxLines: number, maxChars: number): string | undefined {
  const lines = raw.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  if (lines[0]?.startsWith(MEMORY_MARKER)) {
    const rest = lines[0].slice(MEMORY_MARKER.length).trim();
    if (rest) lines[0] = rest;
    else lines.shift();
  }
  if (lines.length === 0) return undefined;
  return clipChars([MEMORY_MARKER, ...lines.slice(0, maxLines)].join('\n'), maxChars);
}

/** At most `max` code points, never splitting a surrogate pair; a cut text ends with `…`. */
function clipChars(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, Math.max(0, max - 1)).join('').trimEnd() + ELLIPSIS;
}

/** The block as a user entry (the seed injects it into the query), placed where `at` stood. */
export function memoryEntry(text: string, at: Entry, parentId: string | null, now: number): Entry {
  return {
    id: `budget-memory-${at.id}`,
    index: at.index,
    parentId,
    role: 'user',
    kind: 'message',
    blocks: [{ type: 'text', text }],
    timestamp: now,
    sourceType: 'budget.memory',
    line: at.line,
  };
}

/**
 * The longest version of `text` (whole lines first, then a cut last line) whose entry fits in
 * `room` tokens; undefined when not even the marker with one character does.
 */
export function fitMemoryBlock(text: string, room: number, counter: TokenCounter, make: (text: string) => Entry): string | undefined {
  const weight = (candidate: string) => countEntry(make(candidate), counter).total;
  if (weight(text) <= room) return text;
  const lines = text.split('\n');
  while (lines.length > 2) {
    lines.pop();
    const candidate = lines.join('\n');
    if (weight(candidate) <= room) return candidate;
  }
  // One line left under the marker: the longest prefix that fits (weight grows with length).
  const points = Array.from(lines.join('\n'));
  // The marker, its newline and at least one character of memory.
  let lo = Array.from(MEMORY_MARKER).length + 2;
  let hi = points.length - 1;
  let best: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate = points.slice(0, mid).join('').trimEnd() + ELLIPSIS;
    if (weight(candidate) <= room) {
      best = candidate;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
