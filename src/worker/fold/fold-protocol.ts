/**
 * The messages of memory folding between the page and the worker: what a fold, a recall or a
 * simulation asks for and what comes back. Types only, so the store and the UI can name them without
 * importing the jobs that make them; what the library keeps of a fold (the view, the request a job
 * stores) is typed in src/db/fold-row.ts and re-exported here.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { FoldSimulation } from '../../core/folding/simulate.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';
import type { FoldSummarizerKind, StoredFoldRequest } from '../../db/fold-row.ts';

export type { FoldBlockView, FoldSummarizerKind, FoldSummaryView, FoldView, RecallRequest, StoredFoldRequest } from '../../db/fold-row.ts';

/** The summary fields of a fold request (FoldRequest extends this). */
export interface FoldSummaryRequest {
  /** Job id, to cancel the model summaries (and report their progress). */
  jobId?: string;
  /** 'offline' (default): extraction digests only; 'remote' / 'webllm': the model indexes every block at L2-L4. */
  summarizer?: FoldSummarizerKind;
  /** The remote provider, key included: held in memory for this request only, never stored. */
  remote?: RemoteConfig;
  localModelId?: string;
  localAppConfig?: AppConfig;
  /** F10: ask the model what each summary misses and add it. Default false. */
  selfCheck?: boolean;
  /** Only model summaries made before are used; the model is not asked (the replay). Default false. */
  cachedOnly?: boolean;
  /** Resume this interrupted job record (src/db/jobs.ts) instead of starting a new one. */
  resumeJobId?: string;
}

/** A fold: where and how to fold (the part a job record stores), and the summary fields of this request. */
export interface FoldRequest extends FoldSummaryRequest, Omit<StoredFoldRequest, keyof FoldSummaryRequest> {}

export interface FoldSummaryProgress {
  done: number;
  total: number;
  tokensPerSecond?: number;
}

/**
 * F13 simulate: the fold as `FoldRequest` describes it (same position, options and recalls), then
 * iterations `from..to` of it folded into one block by the summarizer named in `summarizer`. The
 * fold itself is not changed and no summary is kept.
 */
export interface FoldSimulateRequest extends FoldRequest {
  range: { from: number; to: number };
  /** Level of the simulated block: 2 summary (default), 3 chapter, 4 phase line. */
  level?: 2 | 3 | 4;
}

export type FoldSimulateView = FoldSimulation;
