/** Which summarizer compaction uses (offline by default), and the remote / local model settings — never the key. */
import type { StateCreator } from 'zustand';
import { DEFAULT_TIMEOUT_SECONDS, type TimeoutSeconds } from '../llm/remote/timeouts.ts';

export type SummarizerKind = 'offline' | 'local' | 'remote';

export interface RemoteSettings {
  presetId: string;
  api: 'openai' | 'anthropic';
  baseUrl: string;
  model: string;
}

export interface ModelsSlice {
  summarizerKind: SummarizerKind;
  remote: RemoteSettings;
  localModelId: string | undefined;
  /** Base URL of self-hosted model files (e.g. the site's own models/), or '' for WebLLM's hosts. */
  localModelBaseUrl: string;
  /** Connect, idle-stream and total timeouts of every model request, seconds (persisted). */
  timeouts: TimeoutSeconds;
  settingsOpen: boolean;
  setTimeouts: (timeouts: Partial<TimeoutSeconds>) => void;
  setSummarizerKind: (kind: SummarizerKind) => void;
  setRemote: (remote: Partial<RemoteSettings>) => void;
  setLocalModel: (id: string | undefined) => void;
  setLocalModelBaseUrl: (url: string) => void;
  setSettingsOpen: (open: boolean) => void;
}

export const createModelsSlice: StateCreator<ModelsSlice, [], [], ModelsSlice> = (set) => ({
  summarizerKind: 'offline',
  remote: { presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  localModelId: undefined,
  localModelBaseUrl: '',
  timeouts: { ...DEFAULT_TIMEOUT_SECONDS },
  settingsOpen: false,
  setTimeouts: (timeouts) => set((state) => ({ timeouts: { ...state.timeouts, ...timeouts } })),
  setSummarizerKind: (summarizerKind) => set({ summarizerKind }),
  setRemote: (remote) => set((state) => ({ remote: { ...state.remote, ...remote } })),
  setLocalModel: (localModelId) => set({ localModelId }),
  setLocalModelBaseUrl: (localModelBaseUrl) => set({ localModelBaseUrl }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
});
