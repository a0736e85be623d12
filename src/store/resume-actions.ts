/**
 * Interrupted jobs (src/db/jobs.ts) as the page sees them: the records still `running` that no tab
 * or worker holds the lock of, and the two answers the user can give: resume (the recorded request
 * with the key read from the key ring now; the worker stores at most one run) or discard.
 */
import { db } from '../db/db.ts';
import { heldLocks, interruptedJobs, jobsTable, setJobState, type JobRecord } from '../db/jobs.ts';
import { keyFields } from '../llm/remote/remote-config.ts';
import type { FoldRequest } from '../worker/fold/fold-protocol.ts';
import type { JobProgress } from '../worker/engine/protocol.ts';
import { engine, newJobId, proxy } from '../worker/client.ts';
import { runCompactionJob } from './actions.ts';
import { keyring } from './keyring.ts';
import { useAppStore } from './store.ts';

/** Interrupted jobs of conversations that still exist, oldest first. */
export async function findInterruptedJobs(): Promise<JobRecord[]> {
  const jobs = jobsTable(db);
  if (!jobs) return [];
  const found = await interruptedJobs(jobs, await heldLocks());
  const alive = await db.conversations.bulkGet(found.map((job) => job.conversationId));
  return found.filter((_, i) => alive[i] !== undefined);
}

/**
 * Runs the job again. A compaction's run opens in the Runs tab of its conversation; model fold
 * summaries are made for the blocks still without one, then the Fold tab opens with them on.
 */
export async function resumeJob(job: JobRecord): Promise<void> {
  const remote = job.request.remote;
  const withKey = remote ? { remote: { ...remote, ...keyFields(await keyring.get(remote.presetId)) } } : {};
  const store = useAppStore.getState();
  if (job.kind === 'fold-summaries') {
    await runFoldSummariesJob({ ...job.request, ...withKey, resumeJobId: job.id }, job.label);
    store.select(job.conversationId);
    store.setFoldModel(job.conversationId, { selfCheck: job.request.selfCheck ?? false });
    store.setTab('fold');
    return;
  }
  const row = await runCompactionJob({ ...job.request, ...withKey, resumeJobId: job.id });
  store.select(row.conversationId);
  store.openRun(row.id);
  store.setTab('runs');
}

/** Model fold summaries as a library job (progress bar, Cancel); they are stored as they are made. */
async function runFoldSummariesJob(request: Omit<FoldRequest, 'jobId'>, label: string): Promise<void> {
  const jobId = newJobId('fold');
  const store = useAppStore.getState();
  store.startJob(jobId, label);
  try {
    await engine().fold({ ...request, jobId }, proxy((progress: JobProgress) => useAppStore.getState().updateJob({ ...progress, jobId })));
  } finally {
    useAppStore.getState().endJob(jobId);
  }
}

export async function discardJob(job: JobRecord): Promise<void> {
  const jobs = jobsTable(db);
  if (jobs) await setJobState(jobs, job.id, 'discarded');
}
