/**
 * The typed API the engine worker serves to the page (over Comlink). Progress arrives through a
 * callback; every long job has a job id the page can cancel; errors cross as {name, message}.
 */
import { CancelledError } from '../../core/cancel.ts';
import type { StoredCompactRequest } from '../../db/jobs.ts';
import type { SubagentLink } from '../../core/import/types.ts';
import type { KimiFolderInfo } from '../../core/import/kimi-folder.ts';
import type { KimiCodeAgentInfo } from '../../core/import/kimi-code-folder.ts';
import type { DroidSettings } from '../../core/import/droid-settings.ts';
import type { DroidTaskCall } from '../../core/import/droid-task-call.ts';
import type { CopilotWorkspace } from '../../core/import/copilot-workspace.ts';
import type { InputScope } from '../../core/compaction/input-scope.ts';
import type { FormatId } from '../../core/import/types.ts';
import type { InspectReport } from '../../core/inspect.ts';
import type { CounterId } from '../../core/tokens/counters.ts';
import type { Plan } from '../../core/compaction/types.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';
import type { CompactionRow, ConversationRow } from '../../db/schema.ts';
import type { TokenCounts } from '../../db/token-counts.ts';
import type { FoldRequest, FoldSimulateRequest, FoldSimulateView, FoldView } from '../fold/fold-protocol.ts';
import type { CompareProgress, CompareRequest, CompareResult, CompareSave } from '../compare/compare-protocol.ts';
import type { CompactionDetailView, ComparisonSummary, ComparisonView } from '../compare/compare-view.ts';
import type { ContextRef } from '../../core/replay/types.ts';
import type { UnseenPrefix } from '../../core/replay/recorded-usage.ts';
import type { JudgeJobProgress, JudgeQuote, JudgeRequest, JudgeResult } from '../judge/judge-protocol.ts';
import type { DemoLanguage } from '../../core/demo/generate-session.ts';

/** 'waiting': another tab holds the conversation's compaction lock; the job starts when it is released. */
export type JobPhase = 'reading' | 'saving' | 'counting' | 'generating' | 'planning' | 'summarizing' | 'assembling' | 'waiting' | 'done';

export interface JobProgress {
  jobId: string;
  phase: JobPhase;
  done: number;
  total: number;
  /** Unit of done/total: bytes while reading, entries while counting or saving, summaries while compacting. */
  unit: 'bytes' | 'entries' | 'summaries';
  /** A streaming summarizer's text so far (the latest task), and its speed. */
  partial?: string;
  tokensPerSecond?: number;
  /** Set while the job waits to try a model request again (a rate limit, a busy server, or the network). */
  wait?: JobWait;
}

/** A wait before a retry, as the page shows it ("rate limited — retrying in 12 s"). */
export interface JobWait {
  /** 'rate-limit' for a 429, 'busy' for 5xx/529/408/409, 'network' while offline (the request is sent again once online). */
  reason: 'rate-limit' | 'busy' | 'network';
  /** When the next attempt starts (epoch ms, the worker's clock: the same machine's as the page). */
  until: number;
  /** The attempt about to be made: 1 for the first retry. */
  attempt: number;
}

export type ProgressCallback = (progress: JobProgress) => void;

export interface ImportRequest {
  jobId: string;
  fileName: string;
  format?: FormatId;
  /** Re-import into this conversation (its old entries are replaced only if the import succeeds). */
  replaceId?: string;
  origin: ConversationRow['origin'];
  title?: string;
  /**
   * A Claude Code subagent's `agent-<id>.meta.json`, read beside its transcript (type and
   * description), or a Cursor subagent's link read from its path (parent session and id).
   */
  subagentMeta?: Pick<SubagentLink, 'agentType' | 'description' | 'parentSessionId' | 'agentId'>;
  /** A Kimi CLI session folder's id, title and subagent descriptions, applied to its `wire.jsonl`. */
  kimiFolder?: KimiFolderInfo;
  /** Which agent of a Kimi Code session folder this `wire.jsonl` is (session id, title; a subagent's link). */
  kimiCodeAgent?: KimiCodeAgentInfo;
  /** A Kimi Code subagent's sibling wires (the session's and the other subagents'), where its `Agent` call is found. */
  kimiCodeParents?: Blob[];
  /** A Factory Droid session's `<id>.settings.json`, read beside its session file (model, token totals). */
  droidSettings?: { fileName: string; settings: DroidSettings };
  /** A Factory Droid subagent's Task call, read from its caller's session file picked with it (type, description). */
  droidTaskCall?: DroidTaskCall;
  /** A GitHub Copilot CLI session's `workspace.yaml`, read beside its `events.jsonl` (title, cwd, branch, start). */
  copilotWorkspace?: CopilotWorkspace;
}

export interface ImportOutcome {
  conversation: ConversationRow;
  report: InspectReport;
  /** The counts the import made and stored (o200k), so the page shows them without asking again. */
  counts: TokenCounts;
}


/** A compaction to preview or run on a stored conversation. */
export interface CompactRequest extends Omit<StoredCompactRequest, 'remote'> {
  jobId: string;
  /** The remote provider, key included: held in memory for this request only, never stored. */
  remote?: RemoteConfig;
  /** Resume this interrupted job record (src/db/jobs.ts) instead of starting a new one. */
  resumeJobId?: string;
  /** The id the stored run gets (set by the job record, so that a resume can never store a second run). */
  runId?: string;
}

export interface PlanPreview {
  plan: Plan;
  /** Journal index and id of each input entry (plan.fates are in this order). */
  journalIndex: number[];
  entryIds: string[];
  inputNote?: string;
  /** Where the input starts, what it holds and why. */
  scope?: InputScope;
  previousRunId?: string;
  /** What every call sends beside the transcript (system prompt, tool definitions): recorded, estimated or 0. */
  unseenPrefix: UnseenPrefix;
}

export type { FoldRequest, FoldView, TokenCounts };

export interface EngineApi {
  importBlob(blob: Blob, request: ImportRequest, onProgress: ProgressCallback): Promise<ImportOutcome>;
  /** The generated demo session: in English unless `language` is 'mixed' (Chinese and Japanese prompts). */
  importDemo(request: ImportRequest & { iterations?: number; seed?: number; language?: DemoLanguage }, onProgress: ProgressCallback): Promise<ImportOutcome>;
  countTokens(jobId: string, conversationId: string, counter: CounterId, onProgress: ProgressCallback): Promise<TokenCounts>;
  inspect(conversationId: string, counter: CounterId): Promise<InspectReport>;
  planCompaction(request: CompactRequest): Promise<PlanPreview>;
  compact(request: CompactRequest, onProgress: ProgressCallback): Promise<CompactionRow>;
  fold(request: FoldRequest, onProgress?: ProgressCallback): Promise<FoldView>;
  /** F13: what folding a range of iterations into one block would save; nothing is changed. */
  simulateFold(request: FoldSimulateRequest, onProgress?: ProgressCallback): Promise<FoldSimulateView>;
  compare(request: CompareRequest, onProgress: (progress: CompareProgress) => void): Promise<CompareResult>;
  compareAndSave(request: CompareRequest, save: CompareSave, onProgress: (progress: CompareProgress) => void): Promise<{ id: string; view: ComparisonView }>;
  /** The judged mode of a saved comparison's probes: what a run would send and cost (nothing is sent). */
  estimateJudge(request: JudgeRequest): Promise<JudgeQuote>;
  /** Asks the model, grades the answers, caches them; cancellable by job id; stores nothing on failure. */
  judge(request: JudgeRequest, onProgress: (progress: JudgeJobProgress) => void): Promise<JudgeResult>;
  /** Saved comparisons of a conversation, newest first, without their results (read here, not on the page). */
  listComparisons(conversationId: string): Promise<ComparisonSummary[]>;
  /** A saved comparison with its compactions as markers; undefined when it was deleted. */
  openComparison(id: string): Promise<ComparisonView | undefined>;
  /** One compaction of a saved comparison in full, with the context right after it. */
  comparisonCompaction(id: string, config: number, index: number): Promise<CompactionDetailView | undefined>;
  /** The context one configuration sent at one call of a saved comparison. */
  comparisonCallContext(id: string, config: number, call: number): Promise<ContextRef[]>;
  cancel(jobId: string): void;
  /** Answers WebLLM chats on `port` with this worker's local model, the one its summaries use (webllm-shared.ts): a live session's model. `key` names the port for releaseLocalModelPorts. */
  serveLocalModel(port: MessagePort, key?: string): void;
  /** Stops serving the ports given these keys (their live worker died and cannot release them): their generations stop, the model stays loaded. */
  releaseLocalModelPorts(keys: string[]): Promise<void>;
  /** The local model this worker holds, if any, and whether it is on the GPU. */
  localModel(): Promise<{ modelId: string; state: 'idle' | 'loading' | 'ready' } | undefined>;
  /** The page's navigator.onLine, sent on its online/offline events: no model request is retried while offline. */
  setOnline(online: boolean): void;
}

/** Thrown when the user cancels a job. */
export function jobCancelled(): CancelledError {
  return new CancelledError('Cancelled: nothing was changed.');
}

/** A cancel that arrived after an import was already written: the message says what is now stored. */
export class SavedBeforeCancelError extends Error {
  override name = 'SavedBeforeCancelError';
}
