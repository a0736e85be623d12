/** UI state of the conversation view: which counter, which window, which verbosity, which branch. */
import type { StateCreator } from 'zustand';
import type { Verbosity } from '../core/journal/view-rows.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { DEFAULT_WINDOW_TOKENS } from '../core/tokens/windows.ts';

export interface ViewSlice {
  counter: CounterId;
  /** Preset id, or 'custom' when the user typed a number. */
  windowPreset: string;
  windowTokens: number;
  verbosity: Verbosity;
  /** Leaf of the branch shown, per conversation (absent: the active branch). */
  branchLeaf: Record<string, string>;
  setCounter: (counter: CounterId) => void;
  setWindow: (preset: string, tokens: number) => void;
  setVerbosity: (verbosity: Verbosity) => void;
  setBranchLeaf: (conversationId: string, leafId: string) => void;
}

export const createViewSlice: StateCreator<ViewSlice, [], [], ViewSlice> = (set) => ({
  counter: 'o200k',
  windowPreset: 'claude-200k',
  windowTokens: DEFAULT_WINDOW_TOKENS,
  verbosity: 'default',
  branchLeaf: {},
  setCounter: (counter) => set({ counter }),
  setWindow: (windowPreset, windowTokens) => set({ windowPreset, windowTokens }),
  setVerbosity: (verbosity) => set({ verbosity }),
  setBranchLeaf: (conversationId, leafId) => set((state) => ({ branchLeaf: { ...state.branchLeaf, [conversationId]: leafId } })),
});
