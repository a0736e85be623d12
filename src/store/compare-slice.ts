/**
 * UI state of the Compare tab: the configuration rows being edited (persisted, so a reload keeps
 * them), the price model, which saved comparison is open per conversation, and the running job.
 * Results themselves live in Dexie (src/db/comparisons.ts), never here.
 */
import type { StateCreator } from 'zustand';
import type { CompareProgress } from '../worker/compare/compare-protocol.ts';
import { MAX_COMPARE_CONFIGS } from '../core/replay/compare-limits.ts';

/** One configuration row: a strategy, its raw option strings (as typed), an optional label. */
export interface CompareConfigDraft {
  /** Stable React key. */
  key: string;
  strategy: string;
  label: string;
  values: Record<string, string>;
  /** Run the user's hook module (the Compact tab's) at each compaction of this configuration's replay. */
  hooks?: boolean;
}

/** The compare running now (one at a time), with its latest progress message. */
export interface CompareRunState {
  jobId: string;
  conversationId: string;
  labels: string[];
  startedAt: number;
  progress?: CompareProgress;
}

export interface CompareSlice {
  compareConfigs: CompareConfigDraft[];
  /** '' = the gauge preset's price, else the transcript's recorded model; 'recorded'; or a price table model id. */
  comparePriceModel: string;
  /** Saved comparison opened, per conversation (absent: the newest). */
  compareOpen: Record<string, string>;
  compareRun: CompareRunState | undefined;
  /** Why the last run of a conversation gave no result (failed or cancelled). */
  compareError: { conversationId: string; message: string; cancelled: boolean } | undefined;
  addCompareConfig: (strategy: string) => void;
  removeCompareConfig: (index: number) => void;
  duplicateCompareConfig: (index: number) => void;
  setCompareStrategy: (index: number, strategy: string) => void;
  setCompareLabel: (index: number, label: string) => void;
  setCompareHooks: (index: number, on: boolean) => void;
  setCompareOption: (index: number, name: string, value: string | undefined) => void;
  resetCompareOptions: (index: number) => void;
  setComparePriceModel: (model: string) => void;
  openComparison: (conversationId: string, id: string | undefined) => void;
  setCompareRun: (run: CompareRunState | undefined) => void;
  setCompareProgress: (progress: CompareProgress) => void;
  setCompareError: (error: CompareSlice['compareError']) => void;
}

let nextKey = 0;
const newKey = () => `cfg-${Date.now().toString(36)}-${nextKey++}`;

const draft = (strategy: string, values: Record<string, string> = {}, label = ''): CompareConfigDraft => ({ key: newKey(), strategy, label, values });

export const createCompareSlice: StateCreator<CompareSlice, [], [], CompareSlice> = (set) => {
  const update = (index: number, change: (row: CompareConfigDraft) => CompareConfigDraft) =>
    set((state) => ({ compareConfigs: state.compareConfigs.map((row, i) => (i === index ? change(row) : row)) }));
  return {
    compareConfigs: [draft('pi'), draft('sliding-window')],
    comparePriceModel: '',
    compareOpen: {},
    compareRun: undefined,
    compareError: undefined,
    addCompareConfig: (strategy) =>
      set((state) => (state.compareConfigs.length >= MAX_COMPARE_CONFIGS ? {} : { compareConfigs: [...state.compareConfigs, draft(strategy)] })),
    removeCompareConfig: (index) =>
      set((state) => (state.compareConfigs.length <= 1 ? {} : { compareConfigs: state.compareConfigs.filter((_, i) => i !== index) })),
    duplicateCompareConfig: (index) =>
      set((state) => {
        const row = state.compareConfigs[index];
        if (!row || state.compareConfigs.length >= MAX_COMPARE_CONFIGS) return {};
        const copy = { ...draft(row.strategy, { ...row.values }, row.label ? `${row.label} (copy)` : ''), ...(row.hooks ? { hooks: true } : {}) };
        return { compareConfigs: [...state.compareConfigs.slice(0, index + 1), copy, ...state.compareConfigs.slice(index + 1)] };
      }),
    // Options differ per strategy: a new strategy starts from its own defaults.
    setCompareStrategy: (index, strategy) => update(index, (row) => (row.strategy === strategy ? row : { ...row, strategy, values: {} })),
    setCompareLabel: (index, label) => update(index, (row) => ({ ...row, label })),
    setCompareHooks: (index, on) => update(index, (row) => ({ ...row, hooks: on })),
    setCompareOption: (index, name, value) =>
      update(index, (row) => {
        const values = { ...row.values };
        if (value === undefined) delete values[name];
        else values[name] = value;
        return { ...row, values };
      }),
    resetCompareOptions: (index) => update(index, (row) => ({ ...row, values: {} })),
    setComparePriceModel: (comparePriceModel) => set({ comparePriceModel }),
    openComparison: (conversationId, id) =>
      set((state) => {
        const compareOpen = { ...state.compareOpen };
        if (id === undefined) delete compareOpen[conversationId];
        else compareOpen[conversationId] = id;
        return { compareOpen };
      }),
    setCompareRun: (compareRun) => set({ compareRun }),
    setCompareProgress: (progress) => set((state) => (state.compareRun?.jobId === progress.jobId ? { compareRun: { ...state.compareRun, progress } } : {})),
    setCompareError: (compareError) => set({ compareError }),
  };
};
