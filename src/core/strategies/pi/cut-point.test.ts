import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../../compaction/testing.ts';
import type { Entry } from '../../journal/entry.ts';
import { TokenIndex } from '../../tokens/prefix-sums.ts';
import { findCutPoint, findTurnStart, isValidCutPoint } from './cut-point.ts';

/** Entries with the given ids (msg1, msg2, ...) instead of e0, e1, ... */
function named(specs: Spec[], ids: string[]): Entry[] {
  const entries = makeEntries(specs);
  return entries.map((entry, i) => ({ ...entry, id: ids[i]!, parentId: i === 0 ? null : ids[i - 1]! }));
}

describe('findCutPoint: the seed\'s worked example (seed 001 §3)', () => {
  // msg1..msg8 at 500/800/1200/3000/5000/8000/4000/2000 tokens, keepRecentTokens 20000.
  const counts = [500, 800, 1200, 3000, 5000, 8000, 4000, 2000];
  const ids = counts.map((_, i) => `msg${i + 1}`);
  const entries = named(counts.map((_, i) => ({ user: `message ${i + 1}` })), ids);
  const tokens = new TokenIndex(counts);

  it('accumulates newest-first exactly as the seed does: 14000 go on, 19000 go on, 22000 stop', () => {
    const totals: number[] = [];
    let total = 0;
    for (let i = counts.length - 1; i >= 0; i--) totals.push((total += counts[i]!));
    expect(totals.slice(2, 5)).toEqual([14_000, 19_000, 22_000]);
    expect(19_000 >= 20_000).toBe(false);
    expect(22_000 >= 20_000).toBe(true);
  });

  it('stops where the total reaches 20000: msg4 (22000) is the cut point and the first kept entry; msg1-msg3 are summarized', () => {
    const cut = findCutPoint(entries, tokens, 0, entries.length, 20_000)!;
    expect(cut.reachedAt).toBe(3);
    expect(entries[cut.firstKeptIndex]!.id).toBe('msg4');
    expect(cut.keptTokens).toBe(22_000);
    expect(tokens.range(0, cut.firstKeptIndex - 1)).toBe(2_500);
    expect(cut.isSplitTurn).toBe(false);
    expect(cut.steps[0]).toBe('Newest-first, the kept tail reaches keepRecentTokens 20,000 at msg4 (22,000 tokens).');
  });

  it('keeps msg5..msg8 only when keepRecentTokens is at most 19000 (the tail msg5..msg8 holds 19000)', () => {
    const cut = findCutPoint(entries, tokens, 0, entries.length, 19_000)!;
    expect(entries[cut.firstKeptIndex]!.id).toBe('msg5');
    expect(cut.keptTokens).toBe(19_000);
  });

  it('starts from the last compaction boundary', () => {
    // Boundary at msg3: 1200+3000+...; with 20000 the cut is still msg4.
    expect(findCutPoint(entries, tokens, 2, entries.length, 20_000)!.firstKeptIndex).toBe(3);
    // Boundary at msg5: only 19000 remain, below 20000: everything from msg5 is kept.
    const short = findCutPoint(entries, tokens, 4, entries.length, 20_000)!;
    expect(short.firstKeptIndex).toBe(4);
    expect(short.reachedAt).toBe(-1);
  });
});

describe('findCutPoint: legal cut points', () => {
  it('accepts user and assistant messages only', () => {
    const [user, assistant, tool, system] = makeEntries([{ user: 'u' }, { assistant: 'a' }, { tool: 'r', callId: 'c' }, { system: 's' }]);
    expect([user, assistant, tool, system].map((entry) => isValidCutPoint(entry!))).toEqual([true, true, false, false]);
    expect(isValidCutPoint({ ...user!, kind: 'event' })).toBe(false);
  });

  it('never cuts at a tool result: the cut moves back to the call so the kept tail still holds keepRecentTokens', () => {
    const entries = linkEntries(makeEntries([
      { user: 'start' },
      { assistant: '', calls: [{ id: 'c1', name: 'read', input: { path: 'a.ts' } }] },
      { tool: 'big output', callId: 'c1' },
      { assistant: 'done' },
    ]));
    const tokens = new TokenIndex([100, 100, 30_000, 100]);
    const cut = findCutPoint(entries, tokens, 0, entries.length, 20_000)!;
    expect(cut.reachedAt).toBe(2);
    expect(cut.firstKeptIndex).toBe(1);
    expect(cut.keptTokens).toBeGreaterThanOrEqual(20_000);
    expect(cut.steps.join(' ')).toContain('not a legal cut point');
  });

  it('keeps parallel results with their call', () => {
    const entries = makeEntries([
      { user: 'go' },
      { assistant: '', calls: [{ id: 'a', name: 'read', input: {} }, { id: 'b', name: 'read', input: {} }] },
      { tool: 'ra', callId: 'a' },
      { tool: 'rb', callId: 'b' },
      { assistant: 'ok' },
    ]);
    const cut = findCutPoint(entries, new TokenIndex([10, 10, 10, 5000, 10]), 0, entries.length, 5000)!;
    expect(cut.firstKeptIndex).toBe(1);
  });

  it('moves the cut back when a kept result answers a call made before a later message', () => {
    // An odd order (a user message between a call and its result) must not orphan the result.
    const entries = makeEntries([
      { user: 'one' },
      { assistant: '', calls: [{ id: 'x', name: 'bash', input: { command: 'ls' } }] },
      { user: 'interjection' },
      { tool: 'listing', callId: 'x' },
      { assistant: 'done' },
    ]);
    const cut = findCutPoint(entries, new TokenIndex([10, 10, 500, 10, 10]), 0, entries.length, 500)!;
    expect(cut.reachedAt).toBe(2);
    expect(cut.firstKeptIndex).toBe(1);
    expect(cut.steps.join(' ')).toContain('answers a call in e1');
  });

  it('moves forward, as pi does, only when nothing legal lies at or before the point reached', () => {
    const entries = makeEntries([{ tool: 'orphan', callId: 'gone' }, { tool: 'orphan 2', callId: 'gone2' }, { user: 'next' }, { assistant: 'reply' }]);
    const cut = findCutPoint(entries, new TokenIndex([5000, 5000, 10, 10]), 0, entries.length, 5000)!;
    expect(cut.firstKeptIndex).toBe(2);
    expect(cut.steps.join(' ')).toContain('moves forward');
  });

  it('returns undefined when the span has no user or assistant message', () => {
    const entries = makeEntries([{ tool: 'r', callId: 'c' }, { system: 's' }]);
    expect(findCutPoint(entries, new TokenIndex([10, 10]), 0, 2, 5)).toBeUndefined();
  });
});

describe('split turns (P3)', () => {
  const entries = linkEntries(makeEntries([
    { user: 'first task' },
    { assistant: 'done' },
    { user: 'second task' },
    { assistant: 'step 1', calls: [{ id: 'c1', name: 'read', input: { path: 'x' } }] },
    { tool: 'x contents', callId: 'c1' },
    { assistant: 'step 2', calls: [{ id: 'c2', name: 'edit', input: { path: 'x' } }] },
    { tool: 'edited', callId: 'c2' },
    { assistant: 'finished' },
  ]));
  const tokens = new TokenIndex([100, 100, 100, 100, 100, 3000, 3000, 100]);

  it('flags a cut at an assistant message as a split turn, with the turn\'s user message', () => {
    const cut = findCutPoint(entries, tokens, 0, entries.length, 6000)!;
    expect(cut.firstKeptIndex).toBe(5);
    expect(cut.isSplitTurn).toBe(true);
    expect(cut.turnStartIndex).toBe(2);
  });

  it('does not split when the cut is a user message', () => {
    const cut = findCutPoint(entries, tokens, 0, entries.length, 6350)!;
    expect(cut.firstKeptIndex).toBe(2);
    expect(cut.isSplitTurn).toBe(false);
    expect(cut.turnStartIndex).toBe(-1);
  });

  it('does not split when the turn began before the boundary', () => {
    const cut = findCutPoint(entries, tokens, 3, entries.length, 6000)!;
    expect(cut.firstKeptIndex).toBe(5);
    expect(cut.isSplitTurn).toBe(false);
  });

  it('findTurnStart finds the user message at or before an index, down to a start', () => {
    expect(findTurnStart(entries, 6, 0)).toBe(2);
    expect(findTurnStart(entries, 6, 3)).toBe(-1);
  });
});
