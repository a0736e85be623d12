/**
 * Model fold summaries as a recorded job, where they run (the engine worker). A fold that asks a
 * model for its block summaries writes a job record and holds the job's Web Lock while it runs; a
 * reload leaves the record `running` with no lock held, which the page offers to resume. Every
 * summary is stored as soon as it is made, so a resume asks the model only for the blocks still
 * without one. A fold without a model (or the replay's cached-only steps) records nothing.
 */
import type { Table } from 'dexie';
import { foldJobLabel, jobLockName, jobsTable, putJob, setJobState, storedFoldRequest, type FoldSummariesJobRecord, type JobRecord } from '../../db/jobs.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import type { FoldRequest, FoldView } from './fold-protocol.ts';
import { JobNotResumableError, withLock, type Locks } from '../compaction/resumable-compaction.ts';

type Fold = (request: FoldRequest) => Promise<FoldView>;

/** Whether the fold asks a model for new summaries (what costs money and time). */
export function foldUsesModel(request: FoldRequest): boolean {
  return (request.summarizer ?? 'offline') !== 'offline' && !request.cachedOnly;
}

export class ResumableFolds {
  constructor(
    private readonly db: FoldlabDatabase,
    private readonly locks: Locks | undefined = globalThis.navigator?.locks,
  ) {}

  /** Runs `fold` with the request (as recorded, on a resume); recorded as a job when it asks a model. */
  async run(request: FoldRequest, signal: AbortSignal, fold: Fold): Promise<FoldView> {
    const jobs = jobsTable(this.db);
    if (!jobs || (!foldUsesModel(request) && !request.resumeJobId)) return fold(request);
    const job = request.resumeJobId ? await this.resumable(jobs, request.resumeJobId) : newJob(request);
    // A resume runs the request as recorded; only the key (never stored) and the cancel id are the page's.
    const effective: FoldRequest = request.resumeJobId
      ? { ...job.request, ...(job.request.remote ? { remote: pageKey(job.request.remote, request.remote) } : {}), ...(request.jobId ? { jobId: request.jobId } : {}) }
      : request;
    // The lock is taken before the record says `running`: a running record without a held lock is an interrupted one.
    return withLock(this.locks, jobLockName(job.id), signal, () => undefined, async () => {
      await putJob(jobs, { ...job, state: 'running', updatedAt: Date.now() });
      try {
        const view = await fold(effective);
        await setJobState(jobs, job.id, 'done');
        return view;
      } catch (error) {
        await setJobState(jobs, job.id, signal.aborted ? 'cancelled' : 'failed', signal.aborted ? undefined : error instanceof Error ? error.message : String(error));
        throw error;
      }
    });
  }

  private async resumable(jobs: Table<JobRecord, string>, id: string): Promise<FoldSummariesJobRecord> {
    const job = await jobs.get(id);
    if (!job) throw new JobNotResumableError('These interrupted fold summaries are no longer recorded (discarded, or the conversation was deleted).');
    if (job.kind !== 'fold-summaries') throw new JobNotResumableError(`Job ${id} is not a fold (${job.kind}).`);
    if (job.state === 'discarded') throw new JobNotResumableError('These interrupted fold summaries were discarded.');
    return job;
  }
}

function newJob(request: FoldRequest): FoldSummariesJobRecord {
  const now = Date.now();
  return {
    id: crypto.randomUUID(),
    conversationId: request.conversationId,
    kind: 'fold-summaries',
    state: 'running',
    createdAt: now,
    updatedAt: now,
    label: foldJobLabel(request),
    request: storedFoldRequest(request),
  };
}

/** The recorded remote with the page's key and the origin that key was saved for (never a recorded one). */
function pageKey(recorded: NonNullable<FoldRequest['remote']>, page: FoldRequest['remote']): NonNullable<FoldRequest['remote']> {
  const { keyOrigin: _recorded, ...rest } = recorded;
  return { ...rest, ...(page?.apiKey ? { apiKey: page.apiKey, ...(page.keyOrigin !== undefined ? { keyOrigin: page.keyOrigin } : {}) } : {}) };
}
