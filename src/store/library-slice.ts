/** UI state of the library: the open conversation, running jobs with their progress, the last import outcome. */
import type { StateCreator } from 'zustand';
import type { ImportIssue } from '../core/import/types.ts';
import type { JobProgress } from '../worker/engine/protocol.ts';

export interface JobState {
  id: string;
  label: string;
  progress?: JobProgress;
}

/** What the last import said: a failure message, or the problems found in the lines it kept. */
export interface ImportNotice {
  fileName: string;
  error?: string;
  /** With `error`: the browser's storage is full (the notice shows the usage and how to free space). */
  storageFull?: boolean;
  /** With `error`: true when the failure happened before anything was written (the usual case). */
  nothingChanged?: boolean;
  issues?: ImportIssue[];
  /** Lines skipped in all (`issues` holds at most the first 1000 of them). */
  skipped?: number;
  /** Blank lines the file held (neither entries nor problems). */
  blankLines?: number;
}

export interface LibrarySlice {
  selectedId: string | undefined;
  jobs: Record<string, JobState>;
  notice: ImportNotice | undefined;
  select: (id: string | undefined) => void;
  startJob: (id: string, label: string) => void;
  updateJob: (progress: JobProgress) => void;
  endJob: (id: string) => void;
  setNotice: (notice: ImportNotice | undefined) => void;
}

export const createLibrarySlice: StateCreator<LibrarySlice, [], [], LibrarySlice> = (set) => ({
  selectedId: undefined,
  jobs: {},
  notice: undefined,
  select: (selectedId) => set({ selectedId }),
  startJob: (id, label) => set((state) => ({ jobs: { ...state.jobs, [id]: { id, label } } })),
  updateJob: (progress) =>
    set((state) => {
      const id = progress.jobId.split(':')[0] ?? progress.jobId;
      const job = state.jobs[id];
      return job ? { jobs: { ...state.jobs, [id]: { ...job, progress } } } : {};
    }),
  endJob: (id) =>
    set((state) => {
      const jobs = { ...state.jobs };
      delete jobs[id];
      return { jobs };
    }),
  setNotice: (notice) => set({ notice }),
});
