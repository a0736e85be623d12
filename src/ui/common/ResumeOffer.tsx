/**
 * Interrupted jobs, offered again: a model compaction or model fold summaries cut off by a reload
 * or a crash (the record says running, no tab holds its lock). Resume runs it once more (a
 * compaction stores exactly one run; fold summaries ask only for the blocks still without one);
 * Discard forgets it. Checked when the job records change and every few seconds (locks have no events).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { JobRecord } from '../../db/jobs.ts';
import { runningJobKeys } from '../../store/library-reads.ts';
import { errorMessage } from '../../store/actions.ts';
import { discardJob, findInterruptedJobs, resumeJob } from '../../store/resume-actions.ts';

/** How often the held locks are looked at again (ms): a tab that closes releases its locks silently. */
const RECHECK_MS = 5000;

export function ResumeOffer() {
  const running = useLiveQuery(runningJobKeys, []);
  const [jobs, setJobs] = useState<JobRecord[]>([]);
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    let live = true;
    const check = () => void findInterruptedJobs().then((found) => live && setJobs(found), () => undefined);
    check();
    const timer = setInterval(check, RECHECK_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [running]);

  const visible = jobs.filter((job) => job.id !== busy);
  const resume = async (job: JobRecord) => {
    setBusy(job.id);
    setFailure(undefined);
    try {
      await resumeJob(job);
    } catch (error) {
      setFailure(`${job.label} failed again: ${errorMessage(error)}`);
    } finally {
      setBusy(undefined);
    }
  };
  if (visible.length === 0) {
    return failure ? (
      <div className="notice error" role="alert" data-testid="resume">
        <p data-testid="resume.error">{failure}</p>
        <button type="button" className="link small" onClick={() => setFailure(undefined)}>Dismiss</button>
      </div>
    ) : null;
  }
  return (
    <div className="notice warn" role="alert" data-testid="resume">
      {failure && <p className="error small" data-testid="resume.error">{failure}</p>}
      {visible.map((job) => (
        <div key={job.id} data-testid="resume.job" data-job-id={job.id}>
          <p>
            <strong>Interrupted:</strong> {job.label}, started {new Date(job.createdAt).toLocaleTimeString()}, did not finish (the page was closed or reloaded).{' '}
            {job.kind === 'fold-summaries' ? 'The summaries it made were kept: resuming asks the model only for the rest.' : 'Nothing of it was stored.'}
          </p>
          <button type="button" onClick={() => void resume(job)} disabled={busy !== undefined} data-testid="resume.run">Resume</button>{' '}
          <button type="button" className="link" onClick={() => void discardJob(job)} disabled={busy !== undefined} data-testid="resume.discard">Discard</button>
        </div>
      ))}
    </div>
  );
}
