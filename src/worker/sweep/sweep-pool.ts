/**
 * Runs a sweep's replays on every core: each point (a setting of the strategy) on each session is
 * one task, handed to a pool of sweep workers (one per logical core) as soon as one is free, point
 * by point so that a point is finished as early as possible. Reports tasks and points done with an
 * ETA from the pace so far. A cancel terminates the workers at once and keeps every point whose
 * sessions had all answered; a worker that crashes fails its one task (named in that session's
 * line of the point) and is replaced.
 */
import { emptyScores } from '../../core/replay/scoring.ts';
import { etaMs } from '../../core/sweep/eta.ts';
import type { SessionFigures } from '../../core/sweep/score.ts';
import type { SweepOptions } from '../../core/sweep/types.ts';
import {
  SweepWorkerCrashedError, type SweepReply, type SweepTask, type SweepWorkerFactory, type SweepWorkerHandle,
} from './sweep-protocol.ts';

/** Most sweep workers at once. Default 8. Each holds the journals of the sessions it replays. */
export const MAX_SWEEP_WORKERS = 8;

/** What every task of a sweep shares: all of a task but its id, session and point. */
export type SweepShared = Omit<SweepTask, 'taskId' | 'conversationId' | 'options'>;

export interface SweepJob {
  shared: SweepShared;
  /** The points: the strategy's options at each (`sweepPoints`). */
  points: readonly SweepOptions[];
  /** Conversation ids of the sessions every point is replayed on. */
  sessions: readonly string[];
}

export interface SweepPoolProgress {
  /** Replays (point x session) done, and in all. */
  tasksDone: number;
  tasks: number;
  /** Points whose every session has answered, and in all. */
  pointsDone: number;
  points: number;
  /** Time left at the pace so far, ms; undefined before the first replay ends. */
  etaMs?: number;
}

export interface SweepPoolOutcome {
  /** Per point, in order: its sessions' figures (in session order), or undefined when it did not finish. */
  figures: Array<SessionFigures[] | undefined>;
  cancelled: boolean;
}

export interface SweepPoolOptions {
  spawn: SweepWorkerFactory;
  /** Workers at most (at least 1). */
  size: number;
  /** Clock for the ETA. Default performance.now. Unit: ms. */
  now?: () => number;
}

interface Slot {
  handle: SweepWorkerHandle;
  task: SweepTask | undefined;
}

/** The figures of a replay that could not run at all: no calls, only why. */
export function failedFigures(message: string): SessionFigures {
  return { tokensPerTask: 0, uncompactedTokensPerTask: 0, probes: emptyScores(), overflowCalls: 0, compactions: 0, error: message };
}

/**
 * Runs `job` on a fresh set of workers (stopped when it ends). Resolves when every task answered,
 * or at once on `signal` with the points finished so far; never rejects for a task's failure.
 */
export function runSweepPool(job: SweepJob, options: SweepPoolOptions, signal: AbortSignal, onProgress: (progress: SweepPoolProgress) => void): Promise<SweepPoolOutcome> {
  const now = options.now ?? (() => performance.now());
  const sessions = job.sessions.length;
  const tasks: SweepTask[] = job.points.flatMap((options, point) =>
    job.sessions.map((conversationId, session) => ({ ...job.shared, taskId: point * sessions + session, conversationId, options })),
  );
  const figures: Array<Array<SessionFigures | undefined>> = job.points.map(() => new Array<SessionFigures | undefined>(sessions));
  const left = job.points.map(() => sessions);
  const queue = [...tasks];
  const slots: Slot[] = [];
  const started = now();
  let tasksDone = 0;
  let pointsDone = 0;

  return new Promise<SweepPoolOutcome>((resolve) => {
    let settled = false;
    const finish = (cancelled: boolean) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      for (const slot of slots) slot.handle.terminate();
      resolve({ figures: figures.map((point, i) => (left[i] === 0 ? (point as SessionFigures[]) : undefined)), cancelled });
    };
    const onAbort = () => finish(true);

    const record = (taskId: number, answer: SessionFigures) => {
      const point = Math.floor(taskId / sessions);
      const session = taskId % sessions;
      if (figures[point]![session] !== undefined) return;
      figures[point]![session] = answer;
      tasksDone++;
      if (--left[point]! === 0) pointsDone++;
      onProgress({ tasksDone, tasks: tasks.length, pointsDone, points: job.points.length, etaMs: etaMs(tasksDone, tasks.length, now() - started) ?? 0 });
      if (tasksDone === tasks.length) finish(false);
    };

    const feed = (slot: Slot) => {
      if (settled) return;
      slot.task = queue.shift();
      if (slot.task) slot.handle.post({ type: 'run', task: slot.task });
    };

    const spawn = (): Slot => {
      const slot: Slot = { handle: { post: () => undefined, terminate: () => undefined }, task: undefined };
      slot.handle = options.spawn({
        message: (reply: SweepReply) => {
          if (settled || slot.task?.taskId !== reply.taskId) return;
          record(reply.taskId, reply.type === 'done' ? reply.figures : failedFigures(`${reply.name}: ${reply.message}`));
          feed(slot);
        },
        crash: (reason) => {
          if (settled) return;
          const lost = slot.task;
          slot.handle.terminate();
          slots.splice(slots.indexOf(slot), 1);
          if (lost) record(lost.taskId, failedFigures(new SweepWorkerCrashedError(`The sweep worker replaying this session stopped unexpectedly: ${reason}.`).message));
          if (!settled && queue.length > 0) feed(spawned());
        },
      });
      return slot;
    };
    const spawned = (): Slot => {
      const slot = spawn();
      slots.push(slot);
      return slot;
    };

    if (signal.aborted) return finish(true);
    signal.addEventListener('abort', onAbort);
    onProgress({ tasksDone: 0, tasks: tasks.length, pointsDone: 0, points: job.points.length });
    if (tasks.length === 0) return finish(false);
    const size = Math.max(1, Math.min(Math.floor(options.size), tasks.length));
    for (let i = 0; i < size; i++) feed(spawned());
  });
}
