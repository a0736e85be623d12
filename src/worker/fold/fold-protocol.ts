/**
 * The messages of memory folding between the page and the worker: what a fold, a recall or a
 * simulation asks for and what comes back. Types only, so the protocol, the database schema and the
 * UI can name them without importing the jobs that make them.
 */
import type { InputScope, ReplayFrom } from '../../core/compaction/input-scope.ts';
import type { AppConfig } from '@mlc-ai/web-llm';
import type { FoldedBlock, FoldRun } from '../../core/folding/types.ts';
import type { FoldSimulation } from '../../core/folding/simulate.ts';
import type { TimelineData } from '../../core/folding/timeline-data.ts';
import type { CounterId } from '../../core/tokens/counters.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';

/** A block the user expanded into the retrieved zone at an iteration (0-based) of the replay. */
export interface RecallRequest {
  iteration: number;
  blockId: string;
}

/** Which summarizer writes model summaries: 'offline' (extraction, the default), 'remote' or 'webllm'. */
export type FoldSummarizerKind = 'offline' | 'remote' | 'webllm';

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

/** The summary fields of a fold view (FoldView extends this). */
export interface FoldSummaryView {
  /** Blocks the model could not summarize and what was used instead; self-check results. */
  notes: string[];
  /** Model digests made by this fold, and reused from an earlier one. */
  modelSummaries: { made: number; reused: number };
}

export interface FoldSummaryProgress {
  done: number;
  total: number;
  tokensPerSecond?: number;
}

export interface FoldRequest extends FoldSummaryRequest {
  conversationId: string;
  options: Record<string, unknown>;
  counter: CounterId;
  contextWindow: number;
  leafId?: string;
  /** Where the fold starts on the branch (default 'start': the first entry, the source's own compactions left out). */
  from?: ReplayFrom;
  /** Fold as of this iteration (0-based, inclusive): the replay's position. */
  upToIteration?: number;
  /** Recall query (query_history): the blocks that match. */
  query?: string;
  /** Blocks the user expanded into the retrieved zone, at the iteration they did it. */
  recalls?: RecallRequest[];
}

/** A folded block without its nesting, for the detail panel; `journalFrom..journalTo` open its source. */
export type FoldBlockView = Pick<FoldedBlock, 'id' | 'level' | 'from' | 'to' | 'keywords' | 'entities' | 'stateChanges' | 'tokens' | 'text' | 'sourceHash'>
  & FoldedBlock['summary']
  & { depth: number; importance: number; journalFrom: number; journalTo: number };

export interface FoldView extends FoldSummaryView {
  timeline: TimelineData;
  blocks: FoldBlockView[];
  events: FoldRun['events'];
  /** Iterations in the whole branch (the replay's range). */
  totalIterations: number;
  tokensBefore: number;
  tokensAfter: number;
  summariesMade: number;
  hits: Array<{ blockId: string; score: number }>;
  /** The retrieved zone at the replay's position: recalled blocks until they fade. */
  retrieved: FoldRun['retrieved'];
  /** Requested recalls whose block did not exist at that iteration. */
  missedRecalls: RecallRequest[];
  /** When the view was folded, if it was read back from the library instead of folded again (epoch ms). */
  storedAt?: number;
  /** Where the fold starts and why, when the source agent recorded a compaction on the branch (absent: none recorded). */
  startNote?: string;
  /** What the fold's input covers: where it starts, entries, calls, and the sentence that says so. */
  scope?: InputScope;
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
