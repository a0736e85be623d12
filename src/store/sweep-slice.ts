/**
 * UI state of the Sweep tab: the strategy and the ranges being edited, the sessions picked, which
 * saved sweep is open, and the sweep running now with its latest progress. Saved sweeps live in
 * Dexie (src/db/sweeps.ts), never here.
 */
import type { StateCreator } from 'zustand';
import type { SweepJobProgress } from './sweep-job.ts';

/** One option's row in the form: swept or not, and its range (numbers; booleans and choices sweep all their values). */
export interface VaryDraft {
  on: boolean;
  from: string;
  to: string;
  steps: string;
}

/** The sweep running now (one at a time). */
export interface SweepRunState {
  jobId: string;
  strategy: string;
  startedAt: number;
  progress?: SweepJobProgress;
}

export interface SweepSlice {
  sweepStrategy: string;
  /** Edited rows of the strategy's options, by option name (absent: the row's start). */
  sweepVary: Record<string, VaryDraft>;
  /** '' for the grid, else how many points to draw at random from the ranges. */
  sweepRandom: string;
  /** Conversation ids picked (empty: the open conversation alone). */
  sweepSessions: string[];
  /** The saved sweep shown (absent: the newest). */
  sweepOpen: string | undefined;
  sweepRun: SweepRunState | undefined;
  /** Why the last run gave nothing to show, or that it was cancelled. */
  sweepMessage: { text: string; kind: 'error' | 'cancelled' } | undefined;
  setSweepStrategy: (strategy: string) => void;
  setSweepVary: (name: string, draft: VaryDraft) => void;
  setSweepRandom: (value: string) => void;
  setSweepSessions: (ids: string[]) => void;
  openSweep: (id: string | undefined) => void;
  setSweepRun: (run: SweepRunState | undefined) => void;
  setSweepProgress: (jobId: string, progress: SweepJobProgress) => void;
  setSweepMessage: (message: SweepSlice['sweepMessage']) => void;
}

export const createSweepSlice: StateCreator<SweepSlice, [], [], SweepSlice> = (set) => ({
  sweepStrategy: 'pi',
  sweepVary: {},
  sweepRandom: '',
  sweepSessions: [],
  sweepOpen: undefined,
  sweepRun: undefined,
  sweepMessage: undefined,
  // Options differ per strategy: another strategy starts from its own rows.
  setSweepStrategy: (strategy) => set((state) => (state.sweepStrategy === strategy ? {} : { sweepStrategy: strategy, sweepVary: {} })),
  setSweepVary: (name, draft) => set((state) => ({ sweepVary: { ...state.sweepVary, [name]: draft } })),
  setSweepRandom: (sweepRandom) => set({ sweepRandom }),
  setSweepSessions: (sweepSessions) => set({ sweepSessions }),
  openSweep: (sweepOpen) => set({ sweepOpen }),
  setSweepRun: (sweepRun) => set({ sweepRun }),
  setSweepProgress: (jobId, progress) => set((state) => (state.sweepRun?.jobId === jobId ? { sweepRun: { ...state.sweepRun, progress } } : {})),
  setSweepMessage: (sweepMessage) => set({ sweepMessage }),
});
