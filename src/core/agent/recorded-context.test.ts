// The edits a compaction record keeps give back exactly the context it assembled, whatever the
// strategy did to the context before it (kept, dropped, reordered, rewritten or new entries).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { recordContext, restoreRecordedContext } from './recorded-context.ts';

const entry = (id: string, text: string, role: Entry['role'] = 'tool'): Entry => ({ id, index: 0, parentId: null, role, kind: 'message', blocks: [{ type: 'text', text }], sourceType: 't', line: 1 });
const MESSAGES = Array.from({ length: 12 }, (_, i) => entry(`a${i}`, `entry ${i}`, i % 2 ? 'tool' : 'assistant'));
const journal = (i: number): ContextEntry => ({ role: MESSAGES[i]!.role, entry: MESSAGES[i]!, origin: 'journal' });
const masked = (i: number, text = 'masked'): ContextEntry => ({ role: 'tool', entry: { ...MESSAGES[i]!, blocks: [{ type: 'text', text }] }, origin: 'compressed' });
const summary = (n: number): ContextEntry => ({ role: 'user', entry: entry(`summary-${n}`, `summary ${n}`, 'summary'), origin: 'summary', replaces: { fromId: 'a0', toId: 'a1', count: 2 } });

/** An item of a context: a journal entry, its masked form (two texts), or a summary. */
const item = fc.oneof(
  fc.nat(11).map(journal),
  fc.tuple(fc.nat(11), fc.constantFrom('masked', 'cleared')).map(([i, text]) => masked(i, text)),
  fc.nat(2).map(summary),
);

describe('recordContext and restoreRecordedContext', () => {
  it('restore the recorded context from the one before it (property)', () => {
    fc.assert(fc.property(fc.array(item, { maxLength: 14 }), fc.array(item, { maxLength: 14 }), (before, after) => {
      const previous = { strategy: 'observation-masking' as const, summaries: [] };
      const recorded = recordContext(before, { context: after, previous });
      const record = entry('r', 'record', 'summary');
      record.marker = { source: 'pi.compaction', context: structuredClone(recorded) };
      const restored = restoreRecordedContext(record, structuredClone(before), MESSAGES, 'observation-masking');
      expect(restored?.context).toEqual(after);
      expect(restored?.previous).toEqual(previous);
    }), { numRuns: 300 });
  });

  it('keeps runs of unchanged entries as counts and puts only what is new', () => {
    const before = [summary(0), ...[2, 3, 4, 5, 6, 7].map(journal)];
    const after = [summary(0), journal(2), masked(3), journal(4), masked(5), journal(6), journal(7)];
    const { edits } = recordContext(before, { context: after, previous: { strategy: 'observation-masking', summaries: [] } });
    expect(edits).toEqual([{ keep: 2 }, { put: { role: 'tool', origin: 'compressed', entry: after[2]!.entry } }, { skip: 1 }, { keep: 1 }, { put: { role: 'tool', origin: 'compressed', entry: after[4]!.entry } }, { skip: 1 }, { keep: 2 }]);
  });

  it('gives nothing for a record of another strategy, or one whose edits do not fit the context before it', () => {
    const record = entry('r', 'record', 'summary');
    record.marker = { source: 'pi.compaction', context: recordContext([journal(0)], { context: [journal(0)], previous: { strategy: 'pi', summaries: [] } }) };
    expect(restoreRecordedContext(record, [journal(0)], MESSAGES, 'layered')).toBeUndefined();
    expect(restoreRecordedContext(record, [], MESSAGES, 'pi')).toBeUndefined();
    expect(restoreRecordedContext(record, [journal(0)], MESSAGES, 'pi')?.context).toEqual([journal(0)]);
  });
});
