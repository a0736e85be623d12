// The running-jobs list the update prompt waits on: every kind of job the store tracks.
import { describe, expect, it } from 'vitest';
import { runningJobLabels, type RunningJobsState } from './running-jobs.ts';

const idle: RunningJobsState = { jobs: {}, compareRun: undefined, judgeRun: undefined, activities: {} };

describe('runningJobLabels', () => {
  it('is empty when nothing runs', () => {
    expect(runningJobLabels(idle)).toEqual([]);
  });

  it('names library jobs, a compare and a judged evaluation', () => {
    const state: RunningJobsState = {
      jobs: { a: { id: 'a', label: 'Importing session.jsonl' }, b: { id: 'b', label: 'Compacting with pi' } },
      compareRun: { jobId: 'c', conversationId: 'x', labels: ['pi', 'augment'], startedAt: 0 },
      judgeRun: { jobId: 'j', comparisonId: 'k', startedAt: 0 },
      activities: { 'activity-1': 'Downloading the model Qwen' },
    };
    expect(runningJobLabels(state)).toEqual(['Importing session.jsonl', 'Compacting with pi', 'Comparing 2 configurations', 'Judging a comparison', 'Downloading the model Qwen']);
    expect(runningJobLabels({ ...idle, compareRun: { jobId: 'c', conversationId: 'x', labels: ['pi'], startedAt: 0 } })).toEqual(['Comparing 1 configuration']);
  });
});

describe('page activities', () => {
  it('are listed from begin to end, and ending twice is harmless', async () => {
    const { useAppStore } = await import('./store.ts');
    const end = useAppStore.getState().beginActivity('Making fold summaries with the model');
    const other = useAppStore.getState().beginActivity('Downloading the model Qwen');
    expect(runningJobLabels(useAppStore.getState())).toEqual(['Making fold summaries with the model', 'Downloading the model Qwen']);
    end();
    end();
    expect(runningJobLabels(useAppStore.getState())).toEqual(['Downloading the model Qwen']);
    other();
    expect(runningJobLabels(useAppStore.getState())).toEqual([]);
  });
});
