/**
 * Job records (table `jobs`, schema v5): multi-step work that spans a model call (a compaction with
 * a model summarizer, model fold summaries) writes a row when it starts and marks it when it ends. A row still `running`
 * whose job lock nobody holds was interrupted (the tab was reloaded or crashed) and is offered for
 * resume. The id of the job's result is fixed when the job starts, so a resume stores at most one.
 */
import type Dexie from 'dexie';
import type { Table } from 'dexie';
import type { AppConfig } from '@mlc-ai/web-llm';
import type { ReplayFrom } from '../core/compaction/input-scope.ts';
import type { StrategyId } from '../core/compaction/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { StoredFoldRequest } from './fold-row.ts';
import type { KeyedRemote, StoredRemote } from './stored-remote.ts';

export type { StoredFoldRequest } from './fold-row.ts';

export type JobKind = 'compaction' | 'fold-summaries';
export type JobRecordState = 'running' | 'done' | 'failed' | 'cancelled' | 'discarded';

/** A compaction request as stored with its job: no cancel id, no API key (it is read again on resume). */
export interface StoredCompactRequest {
  conversationId: string;
  strategy: StrategyId;
  /** Raw option values (strings from the form are fine: they are parsed and validated). */
  options: Record<string, unknown>;
  counter: CounterId;
  contextWindow: number;
  /** Branch leaf (default: active) and point in time (journal index, default: the end). */
  leafId?: string;
  upTo?: number;
  /** Where the input starts on the branch (default 'start': the first entry, the source's own compactions left out). */
  from?: ReplayFrom;
  /** Which earlier run to continue from: 'latest' of this strategy (default), a run id, or 'none'. */
  continueFrom?: string;
  /** The user's estimate of the unseen prefix (tokens or a preset id), used only where no call recorded usage. */
  unseenPrefix?: string;
  /** 'offline' (default), 'remote' (with `remote`), 'webllm' (with `localModelId`). */
  summarizer: string;
  /** The remote model, without its key. */
  remote?: StoredRemote;
  /** The WebLLM model for 'webllm' (downloaded beforehand in Settings > Models). */
  localModelId?: string;
  /** WebLLM app config for self-hosted model files (selfHostedConfig), if the user set a base URL. */
  localAppConfig?: AppConfig;
  /** For the custom strategy: the user's plugin module (run in its own worker, with nothing but plain entry data). */
  pluginSource?: string;
  /** The user's hook module (beforeCompact / afterCompact / beforeFork), each call in its own worker. */
  hookSource?: string;
  /** Time each hook call may take, ms (default 2,000). */
  hookTimeoutMs?: number;
  timeoutMs?: number;
  /** Clock for the plan (tests); default the transcript's own time of the call being planned (its latest timestamp). */
  now?: number;
}

interface JobFields {
  id: string;
  conversationId: string;
  state: JobRecordState;
  createdAt: number;
  updatedAt: number;
  /** What the user sees: "Compaction with pi (openai · gpt-4o-mini)". */
  label: string;
  /** Why it failed, for `failed`. */
  error?: string;
}

export interface CompactionJobRecord extends JobFields {
  kind: 'compaction';
  request: StoredCompactRequest;
  /** The id the job's result (the compaction run) gets: a second store of it fails, so a resume never duplicates. */
  resultId: string;
}

/**
 * Model summaries of a fold. Each summary is stored as soon as it is made (keyed by its source), so
 * a resume asks the model only for the blocks that have none: it never pays for one twice.
 */
export interface FoldSummariesJobRecord extends JobFields {
  kind: 'fold-summaries';
  request: StoredFoldRequest;
}

export type JobRecord = CompactionJobRecord | FoldSummariesJobRecord;

/** The Web Lock a running job holds (in the worker that runs it) for as long as it runs. */
export const jobLockName = (id: string) => `foldlab.job.${id}`;
/** The Web Lock one compaction of a conversation holds: one compaction per conversation at a time, across tabs. */
export const compactionLockName = (conversationId: string) => `foldlab.compaction.${conversationId}`;

/** The `jobs` table, or undefined on a database opened by code older than schema v5. */
export function jobsTable(db: Dexie): Table<JobRecord, string> | undefined {
  return db.tables.some((table) => table.name === 'jobs') ? db.table<JobRecord, string>('jobs') : undefined;
}

/** The request without what must not be stored (the key) or is per attempt (cancel id, result id). */
export function storedRequest(request: Omit<StoredCompactRequest, 'remote'> & { jobId: string; runId?: string; resumeJobId?: string; remote?: KeyedRemote }): StoredCompactRequest {
  const { jobId: _jobId, runId: _runId, resumeJobId: _resume, remote, ...rest } = request;
  if (!remote) return rest;
  const { apiKey: _key, keyOrigin: _origin, ...safe } = remote;
  return { ...rest, remote: safe };
}

/** A fold request as its job stores it: no key, no cancel id. */
export function storedFoldRequest(request: Omit<StoredFoldRequest, 'remote'> & { jobId?: string; resumeJobId?: string; remote?: KeyedRemote }): StoredFoldRequest {
  const { jobId: _jobId, resumeJobId: _resume, remote, ...rest } = request;
  if (!remote) return rest;
  const { apiKey: _key, keyOrigin: _origin, ...safe } = remote;
  return { ...rest, remote: safe };
}

export function foldJobLabel(request: Pick<StoredFoldRequest, 'summarizer' | 'remote' | 'localModelId' | 'selfCheck'>): string {
  const model = request.summarizer === 'remote' && request.remote ? `${request.remote.presetId} · ${request.remote.model}` : `local · ${request.localModelId ?? '?'}`;
  return `Fold summaries by the model (${model})${request.selfCheck ? ' with self-check' : ''}`;
}

export function jobLabel(request: Pick<StoredCompactRequest, 'strategy' | 'summarizer' | 'remote' | 'localModelId'>): string {
  const model = request.summarizer === 'remote' && request.remote ? `${request.remote.presetId} · ${request.remote.model}` : request.summarizer === 'webllm' ? `local · ${request.localModelId ?? '?'}` : request.summarizer;
  return `Compaction with ${request.strategy} (${model})`;
}

export async function putJob(table: Table<JobRecord, string>, job: JobRecord): Promise<void> {
  await table.put(job);
}

export async function setJobState(table: Table<JobRecord, string>, id: string, state: JobRecordState, error?: string): Promise<void> {
  await table.update(id, { state, updatedAt: Date.now(), ...(error !== undefined ? { error } : {}) });
}

/**
 * Jobs recorded as running that no live worker holds the lock of: interrupted by a reload or a
 * crash. `held` are the names of the locks held now (`navigator.locks.query()`), in any tab.
 */
export async function interruptedJobs(table: Table<JobRecord, string>, held: ReadonlySet<string>): Promise<JobRecord[]> {
  const running = await table.where('state').equals('running').toArray();
  return running.filter((job) => !held.has(jobLockName(job.id))).sort((a, b) => a.createdAt - b.createdAt);
}

/** Names of the Web Locks held now in this origin (every tab and worker). */
export async function heldLocks(locks: Pick<LockManager, 'query'> | undefined = globalThis.navigator?.locks): Promise<Set<string>> {
  if (!locks) return new Set();
  const snapshot = await locks.query();
  return new Set((snapshot.held ?? []).map((lock) => lock.name).filter((name): name is string => !!name));
}
