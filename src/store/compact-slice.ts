/** UI state of the compaction panel: the tab shown, the strategy picked and its raw option values. */
import type { StateCreator } from 'zustand';
import type { StrategyId } from '../core/compaction/types.ts';

/** 'live': the live session's own view (only on a live conversation). */
export type ConversationTab = 'transcript' | 'compact' | 'runs' | 'fold' | 'compare' | 'sweep' | 'live';

export interface CompactSlice {
  tab: ConversationTab;
  strategy: StrategyId;
  /** Raw values typed in the options form, per strategy (parsed and validated by the worker). */
  optionValues: Partial<Record<StrategyId | 'folding', Record<string, string>>>;
  /** Compact as of this journal index (undefined: the end). */
  upTo: number | undefined;
  /** Continue from the latest run of the same strategy (iterative / nested / archived). */
  continuePrevious: boolean;
  /** The run opened in the result view. */
  openRunId: string | undefined;
  /** The custom strategy's plugin module (undefined: the example). */
  pluginSource: string | undefined;
  setPluginSource: (source: string | undefined) => void;
  /** The user's hook module (beforeCompact / afterCompact / beforeFork); empty: no hooks. */
  hookSource: string;
  setHookSource: (source: string) => void;
  setTab: (tab: ConversationTab) => void;
  setStrategy: (strategy: StrategyId) => void;
  setOption: (strategy: StrategyId | 'folding', name: string, value: string | undefined) => void;
  resetOptions: (strategy: StrategyId | 'folding') => void;
  setUpTo: (upTo: number | undefined) => void;
  setContinuePrevious: (value: boolean) => void;
  openRun: (id: string | undefined) => void;
}

export const createCompactSlice: StateCreator<CompactSlice, [], [], CompactSlice> = (set) => ({
  tab: 'transcript',
  strategy: 'pi',
  optionValues: {},
  upTo: undefined,
  continuePrevious: true,
  openRunId: undefined,
  pluginSource: undefined,
  setPluginSource: (pluginSource) => set({ pluginSource }),
  hookSource: '',
  setHookSource: (hookSource) => set({ hookSource }),
  setTab: (tab) => set({ tab }),
  setStrategy: (strategy) => set({ strategy }),
  setOption: (strategy, name, value) =>
    set((state) => {
      const current = { ...(state.optionValues[strategy] ?? {}) };
      if (value === undefined) delete current[name];
      else current[name] = value;
      return { optionValues: { ...state.optionValues, [strategy]: current } };
    }),
  resetOptions: (strategy) => set((state) => ({ optionValues: { ...state.optionValues, [strategy]: {} } })),
  setUpTo: (upTo) => set({ upTo }),
  setContinuePrevious: (continuePrevious) => set({ continuePrevious }),
  openRun: (openRunId) => set({ openRunId }),
});
