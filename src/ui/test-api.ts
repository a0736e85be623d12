/**
 * A small API on `window.__foldlab` for end-to-end tests: seed data and read what the worker
 * produced without clicking through the UI. It exposes nothing a page script could not already do.
 */
import { importListeners, runListeners } from '../store/actions.ts';
import type { CompactionRow } from '../db/schema.ts';
import { useAppStore } from '../store/store.ts';
import { crashEngineForTest, engine, engineClient } from '../worker/client.ts';
import type { FoldView, ImportOutcome } from '../worker/engine/protocol.ts';

export interface FoldlabTestApi {
  imports: ImportOutcome[];
  runs: CompactionRow[];
  /** The last folding view the worker returned (what the timeline draws). */
  fold?: FoldView;
  state: () => ReturnType<typeof useAppStore.getState>;
  /** Makes the engine worker throw an uncaught error (the crash-recovery test). */
  crashEngine: () => void;
  /** Makes the live sessions' worker throw an uncaught error (its crash-recovery test). */
  crashLiveWorker: () => Promise<void>;
  /** Runs `source` instead of WebLLM's worker, in the page and in the engine worker (local-model tests on a machine without a GPU). */
  fakeWebLLMWorker: (source: string) => Promise<void>;
}

declare global {
  interface Window {
    __foldlab?: FoldlabTestApi;
  }
}

export function installTestApi(): void {
  const api: FoldlabTestApi = { imports: [], runs: [], state: () => useAppStore.getState(), crashEngine: crashEngineForTest, crashLiveWorker, fakeWebLLMWorker };
  importListeners.add((outcome) => api.imports.push(outcome));
  runListeners.add((row) => api.runs.push(row));
  window.__foldlab = api;
}

async function fakeWebLLMWorker(source: string): Promise<void> {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  (await import('../llm/webllm/webllm-client.ts')).setWebLLMWorkerForTest(url);
  engine();
  engineClient.post({ foldlabTest: 'webllm-worker', url });
}

async function crashLiveWorker(): Promise<void> {
  (await import('../store/live-actions.ts')).crashLiveWorkerForTest();
}

/** Lets tests read the plan the timeline was drawn from. */
export function publishFold(view: FoldView): void {
  if (window.__foldlab) window.__foldlab.fold = view;
}
