/**
 * Interrupted jobs (src/db/jobs.ts) as the page sees them: the records still `running` that no tab
 * or worker holds the lock of, and the two answers the user can give: resume (the recorded request
 * with the key read from the key ring now; the worker stores at most one run) or discard.
 */
import { db } from '../db/db.ts';
import { heldLocks, interruptedJobs, jobsTable, setJobState, type JobRecord } from '../db/jobs.ts';
import type { CompactionRow } from '../db/schema.ts';
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

/** Runs the job again; the run opens in the Runs tab of its conversation. */
export async function resumeJob(job: JobRecord): Promise<CompactionRow> {
  const remote = job.request.remote;
  const apiKey = remote ? await keyring.get(remote.presetId) : undefined;
  const row = await runCompactionJob({ ...job.request, ...(remote ? { remote: { ...remote, ...(apiKey ? { apiKey } : {}) } } : {}), resumeJobId: job.id });
  const store = useAppStore.getState();
  store.select(row.conversationId);
  store.openRun(row.id);
  store.setTab('runs');
  return row;
}

export async function discardJob(job: JobRecord): Promise<void> {
  const jobs = jobsTable(db);
  if (jobs) await setJobState(jobs, job.id, 'discarded');
}
