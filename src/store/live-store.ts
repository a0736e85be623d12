/**
 * UI state of the live sessions running in this tab: what streams, which tools ran, compaction
 * progress, notes, tokens per second and cost. Persisted data (the journal, runs, the folder
 * handle) lives in Dexie; this store only mirrors what the running loop reports. It is its own
 * small store, not a slice of the app store, because it belongs to the lazily loaded live-session
 * code and must stay out of the first screen's JavaScript.
 */
import { create } from 'zustand';
import type { CompactionProgress } from '../core/compaction/run.ts';
import type { ModelWait, TurnResult } from '../core/agent/types.ts';

/** One tool call of the current turn, with its outcome once it ran. */
export interface LiveToolRow {
  id: string;
  name: string;
  input?: unknown;
  path?: string;
  ok?: boolean;
  error?: string;
  /** The first lines of what the model received. */
  preview?: string;
}

export interface LiveRuntime {
  busy: boolean;
  phase: 'idle' | 'calling' | 'tool' | 'compacting';
  /** Text of the reply being streamed (not kept: the journal gets the finished reply). */
  streaming: string;
  /** The reply as it was shown when Stop was pressed: not complete, not in the journal; gone at the next turn. */
  unfinished?: string;
  thinking: string;
  /** Characters streamed in this reply and when it started (epoch ms), for tokens per second. */
  streamedChars: number;
  streamStartedAt?: number;
  /** Tokens per second of the last reply (chars/4 over its streaming time). */
  tokensPerSecond?: number;
  /** Model calls and reported usage of this tab's session so far. */
  calls: number;
  usage: { input: number; output: number };
  /** USD at the price table's prices, or undefined when no price is known for the model. */
  costUsd?: number;
  model: string;
  /** Tokens of the context sent with the last call (the session's counter). */
  contextTokens?: number;
  tools: LiveToolRow[];
  progress?: CompactionProgress;
  /** Set while the reply waits before a retry (a 429, a busy server, the network); cleared when it streams or ends. */
  wait?: ModelWait;
  notes: string[];
  /** The last compaction the loop made ("pi at call 3: 12,400 → 3,100 tokens"). */
  lastCompaction?: string;
  /** The text of the last branch summary made when the user moved to another branch. */
  branchSummary?: string;
  lastStatus?: TurnResult['status'];
  error?: string;
}

export const IDLE_RUNTIME: LiveRuntime = {
  busy: false, phase: 'idle', streaming: '', thinking: '', streamedChars: 0, calls: 0, usage: { input: 0, output: 0 }, model: '', tools: [], notes: [],
};

interface LiveStoreState {
  /** By conversation id: only sessions attached in this tab. */
  runtimes: Record<string, LiveRuntime>;
  /** Draft text of the composer, by conversation id (kept across tab switches). */
  drafts: Record<string, string>;
  patch: (conversationId: string, change: Partial<LiveRuntime> | ((runtime: LiveRuntime) => Partial<LiveRuntime>)) => void;
  setDraft: (conversationId: string, text: string) => void;
  detach: (conversationId: string) => void;
}

export const useLiveStore = create<LiveStoreState>()((set) => ({
  runtimes: {},
  drafts: {},
  patch: (id, change) =>
    set((state) => {
      const current = state.runtimes[id] ?? IDLE_RUNTIME;
      const next = typeof change === 'function' ? change(current) : change;
      return { runtimes: { ...state.runtimes, [id]: { ...current, ...next } } };
    }),
  setDraft: (id, text) => set((state) => ({ drafts: { ...state.drafts, [id]: text } })),
  detach: (id) =>
    set((state) => {
      const runtimes = { ...state.runtimes };
      delete runtimes[id];
      return { runtimes };
    }),
}));
