// The context a replay sent at a call, rebuilt from a stored result (what the call panel shows).
import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { compactionBefore, contextAtCall } from './call-context.ts';
import { IDS, result, summary } from './testing-result.ts';
import type { ReplayCompaction } from './types.ts';

describe('compactionBefore', () => {
  it('is the last compaction at or before the call, with its index, or none before the first', () => {
    const compactions = [{ call: 2 }, { call: 5 }, { call: 5 }];
    expect(compactionBefore({ compactions }, 1)).toBeUndefined();
    expect(compactionBefore({ compactions }, 2)).toEqual({ compaction: compactions[0], index: 0 });
    expect(compactionBefore({ compactions }, 4)?.index).toBe(0);
    expect(compactionBefore({ compactions }, 9)).toEqual({ compaction: compactions[2], index: 2 });
  });
});

describe('contextAtCall', () => {
  it('is the recorded prefix before any compaction', () => {
    const r = result([]);
    expect(contextAtCall(r, IDS, 0)).toEqual([{ origin: 'journal', entryId: 'e0' }]);
    expect(contextAtCall(r, IDS, 2).map((ref) => (ref.origin === 'journal' ? ref.entryId : ref.origin))).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
  });

  it('is the last compaction at or before the call, then the entries appended since', () => {
    const r = result([{ call: 2, appendFrom: 4, context: [{ origin: 'summary', entry: summary }, { origin: 'journal', entryId: 'e3' }] }]);
    expect(contextAtCall(r, IDS, 1).length).toBe(3);
    expect(contextAtCall(r, IDS, 2).map((ref) => (ref.origin === 'journal' ? ref.entryId : ref.origin))).toEqual(['summary', 'e3', 'e4']);
    expect(contextAtCall(r, IDS, 3).map((ref) => (ref.origin === 'journal' ? ref.entryId : ref.origin))).toEqual(['summary', 'e3', 'e4', 'e5', 'e6']);
    expect(contextAtCall(r, IDS, 9)).toEqual([]);
  });

  it('rebuilds a compaction stored as a change to the one before it', () => {
    // Compaction 1 keeps the summary and e3; compaction 2 (before call 3) drops e3 and keeps e4, e5 after a new summary.
    const newer: Entry = { ...summary, id: 's2', blocks: [{ type: 'text', text: 'the newer summary' }] };
    const r = result([
      { call: 2, appendFrom: 4, context: [{ origin: 'summary', entry: summary }, { origin: 'journal', entryId: 'e3' }] },
      { call: 3, appendFrom: 6, contextDelta: [-2, [{ origin: 'summary', entry: newer }], 2] },
    ] as Array<Pick<ReplayCompaction, 'call' | 'context' | 'appendFrom'>>);
    const shown = (k: number) => contextAtCall(r, IDS, k).map((ref) => (ref.origin === 'journal' ? ref.entryId : ref.entry.id));
    expect(shown(2)).toEqual(['s1', 'e3', 'e4']);
    expect(shown(3)).toEqual(['s2', 'e4', 'e5', 'e6']);
  });
});
