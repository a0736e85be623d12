/**
 * UI state of the probes' judged mode: the estimate waiting for the user's confirmation, the judge
 * run (one at a time) with its latest progress, the last result per saved comparison (in memory:
 * judging again is answered by the cache in IndexedDB at no cost) and the last error.
 */
import type { StateCreator } from 'zustand';
import type { JudgeJobProgress, JudgeQuote, JudgeResult } from '../worker/judge/judge-protocol.ts';

export interface JudgeRunState {
  jobId: string;
  comparisonId: string;
  startedAt: number;
  progress?: JudgeJobProgress;
}

export interface JudgeSlice {
  /** The estimate asked for (loading while the worker counts), shown until confirmed or dismissed. */
  judgeQuote: { comparisonId: string; quote?: JudgeQuote } | undefined;
  judgeRun: JudgeRunState | undefined;
  /** The latest judge result of each saved comparison, by comparison id. */
  judgeResults: Record<string, JudgeResult>;
  judgeError: { comparisonId: string; message: string; cancelled: boolean } | undefined;
  setJudgeQuote: (quote: JudgeSlice['judgeQuote']) => void;
  setJudgeRun: (run: JudgeRunState | undefined) => void;
  setJudgeProgress: (progress: JudgeJobProgress) => void;
  setJudgeResult: (result: JudgeResult) => void;
  setJudgeError: (error: JudgeSlice['judgeError']) => void;
}

export const createJudgeSlice: StateCreator<JudgeSlice, [], [], JudgeSlice> = (set) => ({
  judgeQuote: undefined,
  judgeRun: undefined,
  judgeResults: {},
  judgeError: undefined,
  setJudgeQuote: (judgeQuote) => set({ judgeQuote }),
  setJudgeRun: (judgeRun) => set({ judgeRun }),
  setJudgeProgress: (progress) => set((state) => (state.judgeRun?.jobId === progress.jobId ? { judgeRun: { ...state.judgeRun, progress } } : {})),
  setJudgeResult: (result) => set((state) => ({ judgeResults: { ...state.judgeResults, [result.comparisonId]: result } })),
  setJudgeError: (judgeError) => set({ judgeError }),
});
