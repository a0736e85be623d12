/**
 * One share of a `sweep` run, the same in the command's own thread and in its worker threads: the
 * job (strategy, points, counter, window) is fixed, and each task replays one session under a run
 * of the points, returning their figures. Tasks arrive as plain data so a thread can take them.
 */
import type { FormatId } from '../core/import/types.ts';
import type { SessionFigures } from '../core/sweep/score.ts';
import { sweepSession } from '../core/sweep/run.ts';
import type { SweepOptions } from '../core/sweep/types.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { parseUnseenPrefix } from '../core/replay/unseen-estimate.ts';
import type { ReplayFrom } from '../core/compaction/input-scope.ts';
import { loadPrompts } from './load.ts';
import { SessionLoader, type SweepSessionRef } from './sweep-sessions.ts';

export interface SweepJob {
  strategy: string;
  points: SweepOptions[];
  sessions: SweepSessionRef[];
  counter: CounterId;
  contextWindow: number;
  format?: FormatId;
  from?: ReplayFrom;
  /** `--unseen-prefix` as typed (parseUnseenPrefix). */
  unseenPrefix?: string;
}

/** Session `session` (index into the job's sessions) under points `from` up to `to`. */
export interface SweepTask {
  session: number;
  from: number;
  to: number;
}

/** Runs a job's tasks in this thread, its files loaded once. */
export function taskRunner(job: SweepJob): (task: SweepTask, onReplayed: () => void) => Promise<SessionFigures[]> {
  const loader = new SessionLoader(job.counter, job.format);
  const prompts = loadPrompts();
  const summarizer = createOfflineSummarizer();
  const unseenPrefix = job.unseenPrefix !== undefined ? parseUnseenPrefix(job.unseenPrefix) : undefined;
  return async (task, onReplayed) => {
    const ref = job.sessions[task.session];
    if (!ref) throw new RangeError(`No session ${task.session} in this sweep.`);
    const session = await loader.load(ref);
    const counter = await getCounter(job.counter);
    return sweepSession(session, job.points.slice(task.from, task.to), {
      strategy: job.strategy, counter, contextWindow: job.contextWindow, summarizer, prompts,
      ...(job.from ? { from: job.from } : {}),
      ...(unseenPrefix ? { unseenPrefix } : {}),
    }, onReplayed);
  };
}

/**
 * The tasks of a job: each session under runs of points, small enough that `jobs` threads stay busy
 * to the end (about four tasks per thread), in session order so each thread reads few files.
 */
export function splitTasks(sessions: number, points: number, jobs: number): SweepTask[] {
  const runsPerSession = Math.max(1, Math.min(points, Math.ceil((jobs * 4) / Math.max(1, sessions))));
  const size = Math.ceil(points / runsPerSession);
  const tasks: SweepTask[] = [];
  for (let session = 0; session < sessions; session++) {
    for (let from = 0; from < points; from += size) tasks.push({ session, from, to: Math.min(points, from + size) });
  }
  return tasks;
}
