// The running-jobs list the update prompt waits on: every kind of job the store tracks.
import { describe, expect, it } from 'vitest';
import { runningJobLabels, type RunningJobsState } from './running-jobs.ts';

const idle: RunningJobsState = { jobs: {}, compareRun: undefined, judgeRun: undefined };

describe('runningJobLabels', () => {
  it('is empty when nothing runs', () => {
    expect(runningJobLabels(idle)).toEqual([]);
  });

  it('names library jobs, a compare and a judged evaluation', () => {
    const state: RunningJobsState = {
      jobs: { a: { id: 'a', label: 'Importing session.jsonl' }, b: { id: 'b', label: 'Compacting with pi' } },
      compareRun: { jobId: 'c', conversationId: 'x', labels: ['pi', 'augment'], startedAt: 0 },
      judgeRun: { jobId: 'j', comparisonId: 'k', startedAt: 0 },
    };
    expect(runningJobLabels(state)).toEqual(['Importing session.jsonl', 'Compacting with pi', 'Comparing 2 configurations', 'Judging a comparison']);
    expect(runningJobLabels({ ...idle, compareRun: { jobId: 'c', conversationId: 'x', labels: ['pi'], startedAt: 0 } })).toEqual(['Comparing 1 configuration']);
  });
});
