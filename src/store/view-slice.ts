/**
 * UI state of the conversation view: which counter, which window, which verbosity, which branch,
 * where on it the gauge and the Compact, Compare and Fold tabs start,
 * and the page's own long activities (model fold summaries, a model download) that a reload
 * would cut off.
 */
import type { StateCreator } from 'zustand';
import type { Verbosity } from '../core/journal/view-rows.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { DEFAULT_WINDOW_TOKENS } from '../core/tokens/windows.ts';
import { DEFAULT_REPLAY_FROM, type ReplayFrom } from '../core/compaction/input-scope.ts';

export interface ViewSlice {
  counter: CounterId;
  /** Preset id, or 'custom' when the user typed a number. */
  windowPreset: string;
  windowTokens: number;
  verbosity: Verbosity;
  /** The unseen prefix the user estimates (tokens or a preset id; '' is 0), for transcripts that recorded no usage. */
  unseenEstimate: string;
  setUnseenEstimate: (value: string) => void;
  /** Leaf of the branch shown, per conversation (absent: the active branch). */
  branchLeaf: Record<string, string>;
  /** Where the gauge, plans, replays and folds start on the branch: one Start choice for the page. */
  replayFrom: ReplayFrom;
  setReplayFrom: (from: ReplayFrom) => void;
  setCounter: (counter: CounterId) => void;
  setWindow: (preset: string, tokens: number) => void;
  setVerbosity: (verbosity: Verbosity) => void;
  setBranchLeaf: (conversationId: string, leafId: string) => void;
  /** Fold tab: block summaries by the model of Settings (with its self-check), per conversation. */
  foldModel: Record<string, { selfCheck: boolean }>;
  setFoldModel: (conversationId: string, model: { selfCheck: boolean } | undefined) => void;
  /** Work the page runs outside the library's jobs, by id -> what it is, in words. */
  activities: Record<string, string>;
  /** Marks `label` as running until the returned function is called. */
  beginActivity: (label: string) => () => void;
}

let nextActivity = 0;

export const createViewSlice: StateCreator<ViewSlice, [], [], ViewSlice> = (set) => ({
  counter: 'o200k',
  windowPreset: 'claude-200k',
  windowTokens: DEFAULT_WINDOW_TOKENS,
  verbosity: 'default',
  unseenEstimate: '',
  setUnseenEstimate: (unseenEstimate) => set({ unseenEstimate }),
  branchLeaf: {},
  replayFrom: DEFAULT_REPLAY_FROM,
  setReplayFrom: (replayFrom) => set({ replayFrom }),
  setCounter: (counter) => set({ counter }),
  setWindow: (windowPreset, windowTokens) => set({ windowPreset, windowTokens }),
  setVerbosity: (verbosity) => set({ verbosity }),
  setBranchLeaf: (conversationId, leafId) => set((state) => ({ branchLeaf: { ...state.branchLeaf, [conversationId]: leafId } })),
  foldModel: {},
  setFoldModel: (conversationId, model) => set((state) => {
    const { [conversationId]: _old, ...rest } = state.foldModel;
    return { foldModel: model ? { ...rest, [conversationId]: model } : rest };
  }),
  activities: {},
  beginActivity: (label) => {
    const id = `activity-${++nextActivity}`;
    set((state) => ({ activities: { ...state.activities, [id]: label } }));
    return () => set((state) => {
      if (!(id in state.activities)) return {};
      const { [id]: _ended, ...rest } = state.activities;
      return { activities: rest };
    });
  },
});
