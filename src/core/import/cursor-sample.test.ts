// A real Cursor CLI transcript (the tail of a PR review session, July 2026, captured by spur's tests),
// checked against counts read off the file by hand; and the turn and time records it shows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkReport } from '../journal/link.ts';
import { cursorRequestTime, cursorTurnEnd, withoutCursorTimestamp } from './cursor-turn.ts';
import { importText } from './run.ts';

const NAME = 'turn-ended-error-writable-iterable-closed-1.jsonl';
const REAL = readFileSync(new URL(`../../../public/samples/cursor/${NAME}`, import.meta.url), 'utf8');

describe('a real Cursor CLI transcript (July 2026)', () => {
  it('imports with the counts read off the file by hand', () => {
    const result = importText(REAL, { fileName: NAME });
    expect(result.format).toBe('cursor');
    // 5 lines: the request, 3 responses (2, 1 and 1 Shell calls), the turn_ended record.
    expect(result.entries.map((entry) => `${entry.id}:${entry.role}`)).toEqual(['l1:user', 'l2:assistant', 'l3:assistant', 'l4:assistant']);
    expect(result.ignoredLines).toBe(1);
    // Cursor writes no results: every call stays unanswered.
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 0, orphanToolCalls: 4, orphanToolResults: 0 });
    expect(result.issues).toEqual([]);
  });

  it('dates the request by its <timestamp>, titles it without, and flags the response the failed turn cut', () => {
    const result = importText(REAL, { fileName: NAME });
    expect(result.entries[0]!.timestamp).toBe(Date.UTC(2026, 6, 13, 8, 59));
    expect(result.meta.title).toMatch(/^Review PR https:\/\/github\.com\/ashugaev\/spur\/pull\/552 for correctness, bugs, and/);
    expect(result.entries.map((entry) => entry.flags)).toEqual([undefined, undefined, undefined, { aborted: true, error: true }]);
  });
});

describe('Cursor turn records', () => {
  it('reads a request time in UTC, with an offset, in the afternoon and at midnight; refuses what it cannot read', () => {
    expect(cursorRequestTime('<timestamp>Monday, Jun 1, 2026, 12:04 PM (UTC+2)</timestamp>\n<user_query>x</user_query>')).toBe(Date.UTC(2026, 5, 1, 10, 4));
    expect(cursorRequestTime('<timestamp>Friday, December 31, 2027, 12:30 AM (UTC-5:30)</timestamp>')).toBe(Date.UTC(2027, 11, 31, 6, 0));
    expect(cursorRequestTime('<timestamp>Tuesday, Jul 14, 2026, 3:07 PM (UTC)</timestamp>')).toBe(Date.UTC(2026, 6, 14, 15, 7));
    expect(cursorRequestTime('<timestamp>yesterday</timestamp>')).toBeUndefined();
    expect(cursorRequestTime('<timestamp>Monday, Foo 1, 2026, 1:00 PM (UTC)</timestamp>')).toBeUndefined();
    expect(withoutCursorTimestamp('<timestamp>Monday, Jun 1, 2026, 12:04 PM (UTC+2)</timestamp>\n<user_query>\nfix it\n</user_query>')).toBe('<user_query>\nfix it\n</user_query>');
  });

  it('flags a response an aborted turn cut as aborted only, and leaves a successful turn and a cut turn with no response alone', () => {
    expect(cursorTurnEnd({ type: 'turn_ended', status: 'aborted', error: 'User aborted/interrupted manually.' })).toEqual({ cut: true, error: false });
    expect(cursorTurnEnd({ type: 'turn_ended', status: 'success' })).toEqual({ cut: false, error: false });
    expect(cursorTurnEnd({ type: 'status', status: 'done' })).toBeUndefined();
    const lines = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');
    const user = { role: 'user', message: { content: [{ type: 'text', text: '<user_query>\ngo\n</user_query>' }] } };
    const reply = { role: 'assistant', message: { content: [{ type: 'text', text: 'ok' }] } };
    const aborted = importText(lines(user, reply, { type: 'turn_ended', status: 'aborted', error: 'User aborted/interrupted manually.' }));
    expect(aborted.entries.at(-1)!.flags).toEqual({ aborted: true });
    expect(importText(lines(user, reply, { type: 'turn_ended', status: 'success' })).entries.at(-1)!.flags).toBeUndefined();
    expect(importText(lines(user, { type: 'turn_ended', status: 'error', error: 'x' })).entries[0]!.flags).toBeUndefined();
  });
});
