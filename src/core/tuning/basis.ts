/**
 * The sentence that goes beside a handed-back block: which sessions the point was chosen on and
 * its numbers, and the same as `#` comment lines for the formats that have comments (TOML, shell).
 * Session names come from files the user imported, so they are made one printable line each.
 */
import { formatNumber } from '../strategies/format-number.ts';
import type { AgentConfigBasis } from './types.ts';

/** Sessions named in the sentence before "and N more". */
export const NAMED_SESSIONS = 5;
/** Characters of a session name kept in the sentence. */
export const NAME_CHARS = 60;

/** A name on one line: control characters and line breaks become spaces, runs of spaces one, long names cut with "…". */
export function oneLine(name: string): string {
  const flat = name.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > NAME_CHARS ? `${chars.slice(0, NAME_CHARS - 1).join('')}…` : flat || '(unnamed)';
}

/** "3 sessions (a.jsonl, b.jsonl, c.jsonl)", "12 sessions (a, b, c, d, e and 7 more)". */
export function sessionsPhrase(sessions: readonly string[]): string {
  const count = sessions.length;
  const names = sessions.slice(0, NAMED_SESSIONS).map(oneLine);
  const more = count > NAMED_SESSIONS ? ` and ${formatNumber(count - NAMED_SESSIONS)} more` : '';
  return `${formatNumber(count)} session${count === 1 ? '' : 's'}${count ? ` (${names.join(', ')}${more})` : ''}`;
}

/** 0.4213 -> "42%", 0.0421 -> "4.2%". */
export function percent(ratio: number): string {
  const p = ratio * 100;
  return `${Math.abs(p) >= 10 ? Math.round(p) : Number(p.toFixed(1))}%`;
}

/** The numbers of the point: tokens per task against the uncompacted sessions, retention, overflowing calls. */
export function numbersPhrase(basis: AgentConfigBasis): string {
  const overflow = basis.overflowCalls === 0 ? 'no call over the window' : `${formatNumber(basis.overflowCalls)} call${basis.overflowCalls === 1 ? '' : 's'} over the window`;
  return `tokens per task ${percent(basis.ratioToUncompacted)} of the uncompacted sessions', retention ${basis.retention.toFixed(2)}, ${overflow}`;
}

/** The basis's window when it names one (a window of 0 or less is each session's own). */
export function knownWindow(basis: AgentConfigBasis): number | undefined {
  return basis.window !== undefined && basis.window > 0 ? basis.window : undefined;
}

/** "Chosen on 3 sessions (a, b, c): tokens per task 42% of the uncompacted sessions', retention 0.91, no call over the window." */
export function basisSentence(basis: AgentConfigBasis): string {
  const window = knownWindow(basis) !== undefined ? ` at a ${formatNumber(basis.window!)}-token window` : '';
  return `Chosen by a Foldlab sweep on ${sessionsPhrase(basis.sessions)}${window}: ${numbersPhrase(basis)}.`;
}

/** The basis as `# ` comment lines (TOML, shell), one line each, never a line break inside. */
export function basisComments(basis: AgentConfigBasis): string[] {
  return [`# ${basisSentence(basis)}`];
}
