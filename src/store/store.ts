/**
 * The one zustand store, combined from typed slices. UI state only: persistent data lives in Dexie.
 * Small preferences (counter, window, verbosity) persist with a version in the library's settings
 * table, with a copy in localStorage for the first paint (preferences-storage.ts).
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { preferencesStorage, PREFERENCES_KEY } from './preferences-storage.ts';
import { createLibrarySlice, type LibrarySlice } from './library-slice.ts';
import { createViewSlice, type ViewSlice } from './view-slice.ts';
import { createCountsSlice, type CountsSlice } from './counts-slice.ts';
import { createCompactSlice, type CompactSlice } from './compact-slice.ts';
import { createModelsSlice, type ModelsSlice } from './models-slice.ts';
import { createCompareSlice, type CompareSlice } from './compare-slice.ts';
import { createJudgeSlice, type JudgeSlice } from './judge-slice.ts';
import { createSweepSlice, type SweepSlice } from './sweep-slice.ts';

export type AppState = LibrarySlice & ViewSlice & CountsSlice & CompactSlice & ModelsSlice & CompareSlice & JudgeSlice & SweepSlice;

export const useAppStore = create<AppState>()(
  persist(
    (...a) => ({ ...createLibrarySlice(...a), ...createViewSlice(...a), ...createCountsSlice(...a), ...createCompactSlice(...a), ...createModelsSlice(...a), ...createCompareSlice(...a), ...createJudgeSlice(...a), ...createSweepSlice(...a) }),
    {
      name: PREFERENCES_KEY,
      version: 1,
      storage: createJSONStorage(() => preferencesStorage),
      partialize: (state) => ({
        counter: state.counter,
        windowPreset: state.windowPreset,
        windowTokens: state.windowTokens,
        verbosity: state.verbosity,
        unseenEstimate: state.unseenEstimate,
        selectedId: state.selectedId,
        strategy: state.strategy,
        optionValues: state.optionValues,
        pluginSource: state.pluginSource,
        hookSource: state.hookSource,
        summarizerKind: state.summarizerKind,
        remote: state.remote,
        localModelId: state.localModelId,
        localModelBaseUrl: state.localModelBaseUrl,
        timeouts: state.timeouts,
        compareConfigs: state.compareConfigs,
        comparePriceModel: state.comparePriceModel,
      }),
      // Timeouts saved before a field existed (the reply timeout) keep that field's default.
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<AppState>;
        return { ...current, ...saved, timeouts: { ...current.timeouts, ...saved.timeouts } };
      },
    },
  ),
);
