/**
 * The user messages Codex carries past a compaction: every prompt the user typed in the history
 * (earlier carried ones included, summaries and injected context left out), taken newest first
 * while they fit the token cap by Codex's own estimate (UTF-8 bytes / 4); the one that crosses the
 * cap is cut to what is left, keeping its start and end around a marker, and older ones are dropped.
 */
import { entryText } from '../../journal/entry.ts';
import { CODEX_BYTES_PER_TOKEN } from './options.ts';

/** A user message the history holds: its journal index and the text Codex would see. */
export interface CarryCandidate {
  index: number;
  text: string;
  /** Whether `text` is already a cut version (carried, truncated, by an earlier compaction). */
  cut: boolean;
}

export interface Carried {
  index: number;
  /** The text carried: the message as is, or cut to the tokens left under the cap. */
  text: string;
  truncated: boolean;
  tokens: number;
}

const encoder = new TextEncoder();

/** Codex's token estimate of a text: UTF-8 bytes / 4, rounded up. */
export function codexApproxTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / CODEX_BYTES_PER_TOKEN);
}

/** `text` cut to about `tokens` tokens: its head and tail around a marker saying how much was left out. */
export function cutToTokens(text: string, tokens: number): string {
  const total = codexApproxTokens(text);
  if (total <= tokens) return text;
  const keepChars = Math.max(0, tokens * CODEX_BYTES_PER_TOKEN);
  const head = text.slice(0, Math.ceil(keepChars / 2));
  const tail = keepChars > 1 ? text.slice(text.length - Math.floor(keepChars / 2)) : '';
  return `${head}\n[… ${(total - tokens).toLocaleString('en-US')} tokens truncated …]\n${tail}`;
}

/** The candidates Codex keeps under `cap`, oldest first (the newest first in, the crossing one cut). */
export function selectCarried(candidates: readonly CarryCandidate[], cap: number): Carried[] {
  const out: Carried[] = [];
  let remaining = cap;
  for (let k = candidates.length - 1; k >= 0 && remaining > 0; k--) {
    const candidate = candidates[k]!;
    const tokens = codexApproxTokens(candidate.text);
    if (tokens <= remaining) {
      out.push({ index: candidate.index, text: candidate.text, truncated: candidate.cut, tokens });
      remaining -= tokens;
    } else {
      out.push({ index: candidate.index, text: cutToTokens(candidate.text, remaining), truncated: true, tokens: remaining });
      break;
    }
  }
  return out.reverse();
}

/** The text Codex reads from a user message. */
export function userText(entry: Parameters<typeof entryText>[0]): string {
  return entryText(entry);
}
