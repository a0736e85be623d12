/**
 * What Cursor's agent transcripts say about a turn beyond its messages, as real transcripts of the
 * Cursor CLI (July 2026) show it (docs/formats.md, Cursor):
 * - the request opens with `<timestamp>Monday, Jul 13, 2026, 8:59 AM (UTC)</timestamp>` (the
 *   offset `(UTC+2)`, `(UTC-5:30)` when not UTC) before its `<user_query>`: the only time the file
 *   records;
 * - a turn closes with `{"type": "turn_ended", "status": ...}`: `success` / `completed`, or `error`
 *   / `aborted` with the reason in `error` (`WritableIterable is closed`, `User aborted/interrupted
 *   manually.`), which cut the turn's last response short.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const TIMESTAMP = /<timestamp>\s*(?:[A-Za-z]+,\s*)?([A-Za-z]{3})[A-Za-z]*\.?\s+(\d{1,2}),\s*(\d{4}),\s*(\d{1,2}):(\d{2})\s*([AP]M)\s*\(UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?\)\s*<\/timestamp>/i;
const TIMESTAMP_TAG = /<timestamp>[\s\S]*?<\/timestamp>\s*/g;

/** The epoch ms a request's `<timestamp>` names, if the text has one Foldlab can read. */
export function cursorRequestTime(text: string): number | undefined {
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[1]!.toLowerCase());
  const hour12 = Number(match[4]);
  if (month < 0 || hour12 < 1 || hour12 > 12) return undefined;
  const hour = (hour12 % 12) + (match[6]!.toUpperCase() === 'PM' ? 12 : 0);
  const offset = match[7] ? (match[7] === '-' ? -1 : 1) * (Number(match[8]) * 60 + Number(match[9] ?? 0)) : 0;
  const utc = Date.UTC(Number(match[3]), month, Number(match[2]), hour, Number(match[5]));
  return Number.isNaN(utc) ? undefined : utc - offset * 60_000;
}

/** The request's text without its `<timestamp>` (for the title). */
export function withoutCursorTimestamp(text: string): string {
  return text.replace(TIMESTAMP_TAG, '');
}

/** How a `turn_ended` record ended its turn: `cut` when the last response did not finish, `error` when a failure cut it. */
export function cursorTurnEnd(record: Record<string, unknown>): { cut: boolean; error: boolean } | undefined {
  if (record.type !== 'turn_ended') return undefined;
  const status = typeof record.status === 'string' ? record.status : '';
  if (status === 'success' || status === 'completed' || status === '') return { cut: false, error: false };
  return { cut: true, error: status === 'error' };
}
