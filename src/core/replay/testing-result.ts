/**
 * A small stored replay result for tests of what the page and the worker read from one: four calls
 * over eight recorded entries, the compactions a test gives, and probe outcomes that score
 * artifact 1/2, constraint 1/1, error 0/1.
 */
import type { Entry } from '../journal/entry.ts';
import type { Probe, ProbeCategory } from '../probes/types.ts';
import type { ProbeOutcome, ReplayCall, ReplayCompaction, ReplayResult } from './types.ts';

export const IDS = ['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7'];
const call = (n: number, entryIndex: number): ReplayCall => ({ call: n, entryIndex, entryId: IDS[entryIndex]!, contextTokens: 10 * n, cachedTokens: 0, outputTokens: 1, compacted: false, overflow: false });
export const summary: Entry = { id: 's1', index: -1, parentId: null, role: 'summary', kind: 'message', blocks: [{ type: 'text', text: 'the summary' }], sourceType: 'summary', line: 0 };
export const scores = () => ({ artifact: { total: 2, kept: 1 }, constraint: { total: 1, kept: 1 }, task: { total: 0, kept: 0 }, error: { total: 1, kept: 0 }, identifier: { total: 0, kept: 0 }, decision: { total: 0, kept: 0 } });

const probe = (category: ProbeCategory, n: number): Probe => ({ id: `${category}${n}`, category, kind: 'x', text: 't', entryId: 'e1', entryIndex: 1, needles: [['t']] });
/** Outcomes that score as `scores()`: artifact 1/2, constraint 1/1, error 0/1. */
export const outcomes = (): ProbeOutcome[] => [{ probe: probe('artifact', 0), kept: true }, { probe: probe('artifact', 1), kept: false }, { probe: probe('constraint', 0), kept: true }, { probe: probe('error', 0), kept: false }];

export function result(compactions: Array<Pick<ReplayCompaction, 'call' | 'context' | 'appendFrom'>>): ReplayResult {
  return {
    config: { strategy: 'pi', options: { keepRecentTokens: '10' } }, label: 'pi, "quoted"', counter: 'chars/4', contextWindow: 100,
    calls: [call(0, 1), call(1, 3), call(2, 5), call(3, 7)],
    compactions: compactions as ReplayCompaction[],
    totals: { calls: 4, tokensPerTask: 60, contextTokens: 60, peakTokens: 30, compactions: compactions.length, overflowCalls: 0, summarizerTokens: { input: 0, output: 0 }, cost: 0.00123, costModel: 'claude-sonnet-4-5' },
    probes: outcomes(), scores: scores(), compactionScores: scores(), finalContext: [], notes: [],
  };
}
