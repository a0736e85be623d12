import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries } from '../../compaction/testing.ts';
import { segmentExchanges } from './exchanges.ts';

const ranges = (xs: Array<{ start: number; end: number }>) => xs.map((x) => [x.start, x.end]);
const none = () => false;

describe('exchanges over journal entries', () => {
  const entries = linkEntries(makeEntries([
    { system: 'sys' }, // 0
    { user: 'one' }, // 1
    { assistant: 'a', calls: [{ id: 'c1', name: 'Bash', input: { command: 'ls' } }] }, // 2
    { tool: 'out', callId: 'c1' }, // 3
    { assistant: 'done' }, // 4
    { user: '<reminder>' }, // 5 (injected)
    { user: 'two' }, // 6
    { assistant: '', calls: [{ id: 'c2', name: 'Read', input: { file_path: 'a' } }, { id: 'c3', name: 'Read', input: { file_path: 'b' } }] }, // 7
    { tool: 'a', callId: 'c2' }, // 8
    { user: 'three (typed while the tool ran)' }, // 9
    { tool: 'b', callId: 'c3' }, // 10
    { assistant: 'ok' }, // 11
  ]));
  entries[5]!.flags = { injected: true };

  it('turns open at user messages the user wrote, never between a call and its result', () => {
    expect(ranges(segmentExchanges(entries, { unit: 'turn', pinned: none }))).toEqual([[1, 5], [6, 11]]);
  });

  it('iterations split at each request that follows a response', () => {
    // The injected reminder after the answer is a request of its own, as Augment would send it.
    expect(ranges(segmentExchanges(entries, { unit: 'iteration', pinned: none }))).toEqual([[1, 2], [3, 4], [5, 5], [6, 7], [8, 11]]);
  });

  it('a pinned turn is not split; a forced start on a system entry moves to the next entry', () => {
    const pinned = segmentExchanges(entries, { unit: 'iteration', pinned: (e) => e.id === 'e8' });
    expect(ranges(pinned)).toEqual([[1, 2], [3, 4], [5, 5], [6, 11]]);
    expect(pinned[3]!.pinned).toBe(true);
    const withSystem = makeEntries([{ user: 'a' }, { assistant: 'b' }, { system: 's' }, { assistant: 'c' }]);
    expect(ranges(segmentExchanges(withSystem, { unit: 'turn', pinned: none, forced: [2] }))).toEqual([[0, 1], [3, 3]]);
  });
});
