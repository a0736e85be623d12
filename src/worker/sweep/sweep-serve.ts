/**
 * One sweep worker's side (sweep-pool.ts hands it tasks): replays the tasks it is sent on the
 * library's sessions. It runs in the engine worker's bundle, started under SWEEP_WORKER_NAME
 * (engine/engine.worker.ts), so a sweep adds no second copy of the replay engine to the download.
 */
import { db } from '../../db/db.ts';
import { SWEEP_WORKER_NAME, type SweepRequest } from './sweep-protocol.ts';
import { SweepReplayer, sweepServer } from './sweep-replay.ts';

export { SWEEP_WORKER_NAME };

interface WorkerScope {
  onmessage: ((event: MessageEvent<SweepRequest>) => void) | null;
  postMessage(message: unknown): void;
}

/** Serves sweep tasks on this worker's messages. */
export function serveSweep(scope: WorkerScope): void {
  const serve = sweepServer(new SweepReplayer(db), (reply) => scope.postMessage(reply));
  scope.onmessage = (event) => serve(event.data);
}
