import { describe, expect, it } from 'vitest';
import { emptyScores } from '../replay/scoring.ts';
import { DEFAULT_RETENTION_WEIGHTS, formatWeights, parseWeights, scorePoint, weightedRetention } from './score.ts';

function probes(counts: Partial<Record<string, [number, number]>>) {
  const scores = emptyScores();
  for (const [category, [kept, total]] of Object.entries(counts) as Array<[keyof typeof scores, [number, number]]>) scores[category] = { kept, total };
  return scores;
}

describe('weightedRetention', () => {
  it('averages the kept share of each category that has probes, by weight', () => {
    // task 1/2 at weight 3, artifact 4/4 at weight 2: (1.5 + 2) / 5.
    expect(weightedRetention(probes({ task: [1, 2], artifact: [4, 4] }), DEFAULT_RETENTION_WEIGHTS)).toBeCloseTo(0.7);
    expect(weightedRetention(probes({ task: [1, 2], artifact: [4, 4] }), { ...DEFAULT_RETENTION_WEIGHTS, artifact: 0 })).toBeCloseTo(0.5);
    expect(weightedRetention(emptyScores(), DEFAULT_RETENTION_WEIGHTS)).toBe(1);
  });
});

describe('parseWeights', () => {
  it('sets the named categories over the defaults', () => {
    expect(parseWeights('artifact=1, error=0.5')).toEqual({ ...DEFAULT_RETENTION_WEIGHTS, artifact: 1, error: 0.5 });
    expect(formatWeights(DEFAULT_RETENTION_WEIGHTS)).toBe('artifact=2,constraint=3,task=3,error=2,identifier=1,decision=1');
  });

  it('refuses an unknown category, a bad number and all zeros', () => {
    expect(() => parseWeights('files=2')).toThrow('--weights: unknown probe category "files"; the categories are artifact, constraint, task, error, identifier, decision.');
    expect(() => parseWeights('task=-1')).toThrow('--weights: task must be a number >= 0; got "-1".');
    expect(() => parseWeights('task')).toThrow('--weights: task must be a number >= 0; got "".');
    expect(() => parseWeights('artifact=0,constraint=0,task=0,error=0,identifier=0,decision=0')).toThrow('At least one probe category needs a weight above 0.');
  });
});

describe('scorePoint', () => {
  it('sums the sessions that ran, averages their tokens per task and lists the failures', () => {
    const figures = [
      { session: 'a', tokensPerTask: 300, uncompactedTokensPerTask: 1000, probes: probes({ task: [1, 1] }), overflowCalls: 0, compactions: 2 },
      { session: 'b', tokensPerTask: 500, uncompactedTokensPerTask: 1000, probes: probes({ task: [0, 1] }), overflowCalls: 1, compactions: 1 },
      { session: 'c', tokensPerTask: 0, uncompactedTokensPerTask: 900, probes: emptyScores(), overflowCalls: 0, compactions: 0, error: 'Call 3: timeout' },
    ];
    const point = scorePoint({ keepRecentTokens: 1 }, figures, DEFAULT_RETENTION_WEIGHTS);
    expect(point).toMatchObject({ tokensPerTask: 400, ratioToUncompacted: 0.4, retention: 0.5, overflowCalls: 1, compactions: 3, errors: ['c: Call 3: timeout'] });
    expect(point.probes.task).toEqual({ kept: 1, total: 2 });
  });
});
