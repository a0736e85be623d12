/**
 * `sweep <file|folder>... --strategy <id> --vary <option>=<from>..<to>[:<steps>] ...`: replays every
 * point of a strategy's settings on every session found (sweep-sessions.ts) with the offline
 * summarizer, scores each point, draws the Pareto front and names the recommended point with the
 * agent's own configuration block (src/core/sweep/). `--jobs N` shares the replays between N
 * worker threads; the figures are the same however they are shared.
 */
import { Worker } from 'node:worker_threads';
import type { ReplayFrom } from '../core/compaction/input-scope.ts';
import type { FormatId } from '../core/import/types.ts';
import { SweepInputError, sweepPoints } from '../core/sweep/points.ts';
import { assembleSweep } from '../core/sweep/assemble.ts';
import type { SessionFigures } from '../core/sweep/score.ts';
import type { RetentionWeights, SweepResult } from '../core/sweep/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { SkippedFile } from './eval-files.ts';
import { splitTasks, taskRunner, type SweepJob, type SweepTask } from './sweep-job.ts';
import { findSweepSessions, type SweepSessionRef } from './sweep-sessions.ts';
import type { ThreadReply, ThreadRequest } from './sweep-thread.ts';

export interface SweepArgs {
  paths: string[];
  strategy: string;
  /** `--vary` texts (points.ts). */
  vary: string[];
  /** `--random N`: N points drawn from the ranges instead of the grid. */
  random?: number;
  seed?: number;
  /** `--option k=v`: values every point shares. */
  options: Record<string, string>;
  counter: CounterId;
  contextWindow: number;
  weights: RetentionWeights;
  tolerance?: number;
  jobs: number;
  format?: FormatId;
  from?: ReplayFrom;
  unseenPrefix?: string;
  /** At most this many sessions of each file, the first ones (the bench's fixed set). */
  perFile?: number;
}

export interface SweepReport {
  result: SweepResult;
  /** The sessions replayed, by name, in the order of each point's figures. */
  sessions: string[];
  /** Files found but not read, with why. */
  skipped: SkippedFile[];
}

/** Replays done so far of `total` (`points` × the sessions). */
export type SweepProgress = (done: number, total: number, points: number) => void;

export async function runSweepCommand(args: SweepArgs, onProgress?: SweepProgress): Promise<SweepReport> {
  // Refuse a bad strategy, option or range before any file is read.
  const points = sweepPoints({
    strategy: args.strategy, vary: args.vary, base: args.options, contextWindow: args.contextWindow,
    ...(args.random !== undefined ? { random: args.random } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
  });
  const found = await findSweepSessions(args.paths, args.format);
  const { skipped } = found;
  const sessions = args.perFile !== undefined ? firstOfEach(found.sessions, args.perFile) : found.sessions;
  if (sessions.length === 0) {
    const seen = skipped.map((skip) => `\n  ${skip.file}: ${skip.reason}`).join('');
    throw new SweepInputError(`No session with a model call found under ${args.paths.join(', ')}.${seen}`);
  }
  const job: SweepJob = {
    strategy: args.strategy, points, sessions, counter: args.counter, contextWindow: args.contextWindow,
    ...(args.format ? { format: args.format } : {}),
    ...(args.from ? { from: args.from } : {}),
    ...(args.unseenPrefix !== undefined ? { unseenPrefix: args.unseenPrefix } : {}),
  };
  const figures = await runJob(job, args.jobs, onProgress);
  const result = assembleSweep({
    strategy: args.strategy, points, sessions: sessions.map((s) => s.name), weights: args.weights, contextWindow: args.contextWindow,
    figures: points.map((_, p) => figures.map((row) => row[p]!)),
    ...(args.tolerance !== undefined ? { tolerance: args.tolerance } : {}),
  });
  return { result, sessions: sessions.map((s) => s.name), skipped };
}

function firstOfEach(sessions: readonly SweepSessionRef[], perFile: number): SweepSessionRef[] {
  const taken = new Map<string, number>();
  return sessions.filter((s) => {
    const n = taken.get(s.file) ?? 0;
    taken.set(s.file, n + 1);
    return n < perFile;
  });
}

/** Every point's figures on every session, `[session][point]`, run here (jobs 1) or in `jobs` threads. */
async function runJob(job: SweepJob, jobs: number, onProgress?: SweepProgress): Promise<SessionFigures[][]> {
  const tasks = splitTasks(job.sessions.length, job.points.length, jobs);
  const total = job.sessions.length * job.points.length;
  let done = 0;
  const replayed = () => onProgress?.(++done, total, job.points.length);
  const figures: SessionFigures[][] = job.sessions.map(() => new Array<SessionFigures>(job.points.length));
  const store = (task: SweepTask, rows: SessionFigures[]) => rows.forEach((row, k) => (figures[task.session]![task.from + k] = row));
  if (jobs <= 1) {
    const run = taskRunner(job);
    for (const task of tasks) store(task, await run(task, replayed));
    return figures;
  }
  await inThreads(job, tasks, Math.min(jobs, tasks.length), replayed, store);
  return figures;
}

/** The thread entry is TypeScript like the rest of the CLI: a small stub loads it through tsx's API. */
function startThread(job: SweepJob): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const file = new URL('./sweep-thread.ts', import.meta.url).href;
  const stub = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(stub, { eval: true, workerData: job });
}

/** Hands the tasks to `count` threads, the next task to whichever finishes first; any failure stops them all. */
function inThreads(job: SweepJob, tasks: readonly SweepTask[], count: number, replayed: () => void, store: (task: SweepTask, rows: SessionFigures[]) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const threads = Array.from({ length: count }, () => startThread(job));
    let next = 0;
    let finished = 0;
    let failed = false;
    const stop = (error?: Error) => {
      if (failed) return;
      if (error) failed = true;
      for (const thread of threads) void thread.terminate();
      if (error) reject(error);
      else resolve();
    };
    const give = (thread: Worker) => {
      if (next >= tasks.length) return;
      const request: ThreadRequest = { id: next, task: tasks[next++]! };
      thread.postMessage(request);
    };
    for (const thread of threads) {
      thread.on('message', (reply: ThreadReply) => {
        if (reply.kind === 'replayed') return replayed();
        if (reply.kind === 'failed') return stop(new Error(`${job.sessions[tasks[reply.id]!.session]!.name}: ${reply.message}`));
        store(tasks[reply.id]!, reply.figures as SessionFigures[]);
        if (++finished === tasks.length) stop();
        else give(thread);
      });
      thread.on('error', (error: Error) => stop(error));
      give(thread);
    }
  });
}

