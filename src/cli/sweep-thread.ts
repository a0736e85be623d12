/**
 * A worker thread of `sweep --jobs N`: takes the job once (workerData), then replays each task it
 * is sent and posts back one `replayed` per finished replay (progress) and the task's figures.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { taskRunner, type SweepJob, type SweepTask } from './sweep-job.ts';

export type ThreadRequest = { id: number; task: SweepTask };
export type ThreadReply = { kind: 'replayed' } | { kind: 'done'; id: number; figures: unknown } | { kind: 'failed'; id: number; message: string };

const port = parentPort;
const run = taskRunner(workerData as SweepJob);
const post = (reply: ThreadReply) => port?.postMessage(reply);

port?.on('message', (request: ThreadRequest) => {
  run(request.task, () => post({ kind: 'replayed' })).then(
    (figures) => post({ kind: 'done', id: request.id, figures }),
    (error: unknown) => post({ kind: 'failed', id: request.id, message: (error as Error).message }),
  );
});
