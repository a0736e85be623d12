/**
 * What the app is running now, in words: imports, counts and compactions (the library's jobs), a
 * compare, a judged evaluation, and the page's own activities (model fold summaries, a model
 * download). The update prompt waits for this list to empty before it lets a
 * new version replace the code, so no job is cut off by a reload.
 */
import type { AppState } from './store.ts';

export type RunningJobsState = Pick<AppState, 'jobs' | 'compareRun' | 'judgeRun' | 'activities'>;

/** One label per running job, library jobs first; empty when nothing runs. */
export function runningJobLabels(state: RunningJobsState): string[] {
  const labels = Object.values(state.jobs).map((job) => job.label);
  if (state.compareRun) labels.push(`Comparing ${state.compareRun.labels.length} configuration${state.compareRun.labels.length === 1 ? '' : 's'}`);
  if (state.judgeRun) labels.push('Judging a comparison');
  labels.push(...Object.values(state.activities));
  return labels;
}
