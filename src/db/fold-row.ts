/**
 * What the library keeps of memory folding: a finished fold view (table `folds`, schema v5), and a
 * fold request as its model-summaries job record stores it (no job id, no key). Typed here, so a
 * stored view or job does not change shape when a fold message does; the fold messages between
 * the page and the worker (worker/fold/fold-protocol.ts) are built from these types.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { InputScope, ReplayFrom } from '../core/compaction/input-scope.ts';
import type { FoldedBlock, FoldRun } from '../core/folding/types.ts';
import type { TimelineData } from '../core/folding/timeline-data.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { StoredRemote } from './stored-remote.ts';

/** A block the user expanded into the retrieved zone at an iteration (0-based) of the replay. */
export interface RecallRequest {
  iteration: number;
  blockId: string;
}

/** Which summarizer writes model summaries: 'offline' (extraction, the default), 'remote' or 'webllm'. */
export type FoldSummarizerKind = 'offline' | 'remote' | 'webllm';

/** A fold request as stored with its model-summaries job: no job id, no API key (read again on resume). */
export interface StoredFoldRequest {
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
  /** 'offline' (default): extraction digests only; 'remote' / 'webllm': the model indexes every block at L2-L4. */
  summarizer?: FoldSummarizerKind;
  /** The remote model, without its key. */
  remote?: StoredRemote;
  localModelId?: string;
  localAppConfig?: AppConfig;
  /** F10: ask the model what each summary misses and add it. Default false. */
  selfCheck?: boolean;
  /** Only model summaries made before are used; the model is not asked (the replay). Default false. */
  cachedOnly?: boolean;
}

/** The summary fields of a fold view (FoldView extends this). */
export interface FoldSummaryView {
  /** Blocks the model could not summarize and what was used instead; self-check results. */
  notes: string[];
  /** Model digests made by this fold, and reused from an earlier one. */
  modelSummaries: { made: number; reused: number };
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
