/**
 * Compaction as a guarded job, where it runs (the engine worker). One compaction per conversation
 * at a time across tabs: it holds the conversation's Web Lock, and a second one says it is waiting
 * for another tab until the lock is free (or the user cancels). A compaction whose summaries come
 * from a model keeps a job record (src/db/jobs.ts) while it runs, holding the job's own lock; a
 * reload leaves the record `running` with no lock held, which the page offers to resume. The run's
 * id is fixed by the record, so a resume stores exactly one run however often it is asked for.
 */
import type { Table } from 'dexie';
import { compactionLockName, jobLabel, jobLockName, jobsTable, putJob, setJobState, storedRequest, type CompactionJobRecord, type JobRecord } from '../../db/jobs.ts';
import type { CompactionRow, FoldlabDatabase } from '../../db/schema.ts';
import { asStorageError } from '../../db/storage-errors.ts';
import { jobCancelled, type CompactRequest } from '../engine/protocol.ts';

/** The part of the Web Locks API used here (`navigator.locks`, in the page and in workers). */
export type Locks = Pick<LockManager, 'request'>;

type Compact<P> = (request: CompactRequest, signal: AbortSignal, onProgress: P) => Promise<CompactionRow>;

/** An interrupted job asked to resume is gone, finished or was discarded. */
export class JobNotResumableError extends Error {
  override name = 'JobNotResumableError';
}

const NOT_FREE = Symbol('lock held elsewhere');

/**
 * Runs `work` holding the lock `name`. If another tab or worker holds it, `onWaiting` is called
 * once and the work starts when the lock is released; cancelling `signal` meanwhile gives up.
 * Without the Web Locks API (Node), the work runs directly: there is no other tab to exclude.
 */
export async function withLock<T>(locks: Locks | undefined, name: string, signal: AbortSignal, onWaiting: () => void, work: () => Promise<T>): Promise<T> {
  if (!locks) return work();
  const first = await locks.request(name, { ifAvailable: true }, async (lock) => (lock ? { value: await work() } : NOT_FREE));
  if (first !== NOT_FREE) return first.value;
  if (signal.aborted) throw jobCancelled();
  onWaiting();
  try {
    return await locks.request(name, { signal }, () => work());
  } catch (error) {
    if (signal.aborted) throw jobCancelled();
    throw error;
  }
}

export class ResumableCompactions<P> {
  constructor(
    private readonly db: FoldlabDatabase,
    private readonly compact: Compact<P>,
    private readonly locks: Locks | undefined = globalThis.navigator?.locks,
  ) {}

  /** Compacts under the conversation's lock; with a model summarizer, as a recorded, resumable job. */
  run(request: CompactRequest, signal: AbortSignal, onProgress: P, onWaiting: () => void): Promise<CompactionRow> {
    return this.locked(request, signal, onProgress, onWaiting).catch((error: unknown) => {
      throw asStorageError(error, 'storing the compaction run');
    });
  }

  private locked(request: CompactRequest, signal: AbortSignal, onProgress: P, onWaiting: () => void): Promise<CompactionRow> {
    return withLock(this.locks, compactionLockName(request.conversationId), signal, onWaiting, async () => {
      const jobs = jobsTable(this.db);
      if (!jobs || (request.summarizer === 'offline' && !request.resumeJobId)) return this.compact(request, signal, onProgress);
      const job = request.resumeJobId ? await this.resumable(jobs, request.resumeJobId) : newJob(request);
      if ('row' in job) return job.row;
      // A resume runs the request as recorded; only the key (never stored) and the cancel id are the page's.
      const effective: CompactRequest = request.resumeJobId ? { ...job.request, ...withKey(job.request.remote, request.remote), jobId: request.jobId } : request;
      // The job's own lock is taken before its record says `running`: a running record without a
      // held lock is then always an interrupted one.
      return withLock(this.locks, jobLockName(job.id), signal, () => undefined, () => this.runJob(jobs, job, effective, signal, onProgress));
    });
  }

  private async runJob(jobs: Table<JobRecord, string>, job: CompactionJobRecord, request: CompactRequest, signal: AbortSignal, onProgress: P): Promise<CompactionRow> {
    await putJob(jobs, { ...job, state: 'running', updatedAt: Date.now() });
    try {
      const row = await this.compact({ ...request, runId: job.resultId }, signal, onProgress);
      await setJobState(jobs, job.id, 'done');
      return row;
    } catch (error) {
      const stored = await this.db.compactions.get(job.resultId);
      if (stored) {
        // The run was stored by an earlier attempt (its end was not recorded): that is the result.
        await setJobState(jobs, job.id, 'done');
        return stored;
      }
      await setJobState(jobs, job.id, signal.aborted ? 'cancelled' : 'failed', signal.aborted ? undefined : error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  /** The record to resume, or the run it already stored (a second resume, or one interrupted after storing). */
  private async resumable(jobs: Table<JobRecord, string>, id: string): Promise<CompactionJobRecord | { row: CompactionRow }> {
    const job = await jobs.get(id);
    if (!job) throw new JobNotResumableError('This interrupted compaction is no longer recorded (it was discarded or its conversation deleted).');
    if (job.kind !== 'compaction') throw new JobNotResumableError(`Job ${id} is not a compaction (${job.kind}).`);
    const stored = await this.db.compactions.get(job.resultId);
    if (stored) {
      if (job.state !== 'done') await setJobState(jobs, id, 'done');
      return { row: stored };
    }
    if (job.state === 'done') throw new JobNotResumableError('This compaction already finished, and its run has since been deleted.');
    if (job.state === 'discarded') throw new JobNotResumableError('This interrupted compaction was discarded.');
    return job;
  }
}

/** The recorded remote with the page's key and the origin that key was saved for (never a recorded one). */
function withKey(remote: CompactionJobRecord['request']['remote'], page: CompactRequest['remote']): Pick<CompactRequest, 'remote'> {
  if (!remote) return {};
  const { keyOrigin: _recorded, ...recorded } = remote as CompactRequest['remote'] & object;
  return { remote: { ...recorded, ...(page?.apiKey ? { apiKey: page.apiKey, ...(page.keyOrigin !== undefined ? { keyOrigin: page.keyOrigin } : {}) } : {}) } };
}

function newJob(request: CompactRequest): CompactionJobRecord {
  const now = Date.now();
  return {
    id: crypto.randomUUID(),
    conversationId: request.conversationId,
    kind: 'compaction',
    state: 'running',
    createdAt: now,
    updatedAt: now,
    label: jobLabel(request),
    request: storedRequest(request),
    resultId: crypto.randomUUID(),
  };
}
