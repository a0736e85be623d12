import { describe, expect, it } from 'vitest';
import { PROBE_CATEGORIES } from '../probes/types.ts';
import { gradesByKind, JUDGE_KINDS, KIND_OF_CATEGORY } from './judge-kinds.ts';

describe('gradesByKind', () => {
  it('maps every probe category to one of the four dimensions, each dimension reached', () => {
    expect(PROBE_CATEGORIES.map((category) => KIND_OF_CATEGORY[category]).sort()).toEqual(['artifact', 'continuation', 'decision', 'recall', 'recall', 'recall']);
    expect(new Set(Object.values(KIND_OF_CATEGORY))).toEqual(new Set(JUDGE_KINDS));
  });

  it('averages each dimension over its answers, and overall over the dimensions (not the answers)', () => {
    const grades = gradesByKind([
      { category: 'identifier', score: 5 },
      { category: 'constraint', score: 4 },
      { category: 'error', score: 3 },
      { category: 'artifact', score: 2 },
      { category: 'task', score: 1 },
    ]);
    expect(grades).toEqual({ recall: 4, artifact: 2, continuation: 1, decision: null, overall: 2.33, graded: 5, unreadable: 0 });
  });

  it('leaves an unreadable grade out of every mean and counts it, never as 0', () => {
    const grades = gradesByKind([{ category: 'artifact', score: 4 }, { category: 'artifact', score: null }, { category: 'decision', score: null }]);
    expect(grades).toMatchObject({ artifact: 4, decision: null, overall: 4, graded: 1, unreadable: 2 });
  });

  it('has no overall when nothing was graded', () => {
    expect(gradesByKind([{ category: 'task', score: null }])).toMatchObject({ overall: null, continuation: null, unreadable: 1 });
  });
});
