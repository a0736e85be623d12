import { describe, expect, it } from 'vitest';
import type { Entry } from '../../core/journal/entry.ts';
import type { ReplayCall, ReplayCompaction, ReplayResult } from '../../core/replay/types.ts';
import type { ComparisonRow } from '../../db/schema.ts';
import type { Probe, ProbeCategory } from '../../core/probes/types.ts';
import { retention } from '../../core/replay/retention.ts';
import { comparisonCsv, contextAtCall, defaultName, resolvePriceModel } from './model.ts';

const IDS = ['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7'];
const call = (n: number, entryIndex: number): ReplayCall => ({ call: n, entryIndex, entryId: IDS[entryIndex]!, contextTokens: 10 * n, cachedTokens: 0, outputTokens: 1, compacted: false, overflow: false });
const summary: Entry = { id: 's1', index: -1, parentId: null, role: 'summary', kind: 'message', blocks: [{ type: 'text', text: 'the summary' }], sourceType: 'summary', line: 0 };
const scores = () => ({ artifact: { total: 2, kept: 1 }, constraint: { total: 1, kept: 1 }, task: { total: 0, kept: 0 }, error: { total: 1, kept: 0 }, identifier: { total: 0, kept: 0 }, decision: { total: 0, kept: 0 } });

const probe = (category: ProbeCategory, n: number): Probe => ({ id: `${category}${n}`, category, kind: 'x', text: 't', entryId: 'e1', entryIndex: 1, needles: [['t']] });
/** Outcomes that score as `scores()`: artifact 1/2, constraint 1/1, error 0/1. */
const outcomes = () => [{ probe: probe('artifact', 0), kept: true }, { probe: probe('artifact', 1), kept: false }, { probe: probe('constraint', 0), kept: true }, { probe: probe('error', 0), kept: false }];

function result(compactions: Array<Pick<ReplayCompaction, 'call' | 'context' | 'appendFrom'>>): ReplayResult {
  return {
    config: { strategy: 'pi', options: { keepRecentTokens: '10' } }, label: 'pi, "quoted"', counter: 'chars/4', contextWindow: 100,
    calls: [call(0, 1), call(1, 3), call(2, 5), call(3, 7)],
    compactions: compactions as ReplayCompaction[],
    totals: { calls: 4, tokensPerTask: 60, contextTokens: 60, peakTokens: 30, compactions: compactions.length, overflowCalls: 0, summarizerTokens: { input: 0, output: 0 }, cost: 0.00123, costModel: 'claude-sonnet-4-5' },
    probes: outcomes(), scores: scores(), compactionScores: scores(), finalContext: [], notes: [],
  };
}

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

describe('exports and defaults', () => {
  it('writes one CSV row per configuration, quoting what needs it', () => {
    const row = { id: 'x', conversationId: 'c', importId: 'i', createdAt: 0, name: 'n', request: {} as ComparisonRow['request'], result: { conversationId: 'c', counter: 'chars4', counterLabel: 'chars/4', contextWindow: 100, entryIds: IDS, results: [result([]), { ...result([]), label: '=1+1', error: 'boom' }], durationMs: 1 } } as ComparisonRow;
    const lines = comparisonCsv(row).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('tokens_per_task');
    expect(lines[1]).toMatch(/^"pi, ""quoted""",pi,"\{""keepRecentTokens"":""10""\}",4,0,30,0,60,60,0,0,0\.001230,claude-sonnet-4-5,1,2,1,1,0,0,0,1,/);
    expect(lines[1]!.endsWith(',2,4,')).toBe(true);
    expect(lines[2]!.startsWith("'=1+1,")).toBe(true);
    expect(lines[2]!.endsWith(',boom')).toBe(true);
  });

  it('scores over every category; price model and names', () => {
    expect(retention(outcomes())).toEqual({ byCategory: scores(), all: { kept: 2, total: 4 } });
    expect(resolvePriceModel('', 'claude-200k')).toBe('claude-sonnet-4-5');
    expect(resolvePriceModel('', 'custom')).toBeUndefined();
    expect(resolvePriceModel('recorded', 'claude-200k')).toBeUndefined();
    expect(resolvePriceModel('gpt-4o', 'claude-200k')).toBe('gpt-4o');
    expect(defaultName(['pi', 'augment'], 50_000, 'chars/4')).toBe('pi vs augment · 50,000 chars/4');
    expect(defaultName(['pi'], 50_000, 'chars/4')).toBe('Replay: pi · 50,000 chars/4');
  });
});
