/**
 * A sweep worker that is the calling thread: the tasks replayed one after another with the same
 * code a module worker runs (sweep-replay.ts), replies arriving in a later task as a worker's
 * would. Runs the pool and job in Node tests, where no module worker starts.
 */
import type { FoldlabDatabase } from '../../db/schema.ts';
import type { SweepWorkerFactory } from './sweep-protocol.ts';
import { SweepReplayer, sweepServer, type SweepSummarizers } from './sweep-replay.ts';

/** A sweep worker that is the calling thread: replies arrive in a later task, as a worker's would. */
export function inThreadSweepWorker(db: FoldlabDatabase, summarizers?: SweepSummarizers): SweepWorkerFactory {
  return (events) => {
    let stopped = false;
    const stop = new AbortController();
    const serve = sweepServer(new SweepReplayer(db, summarizers), (reply) => {
      if (!stopped) setTimeout(() => !stopped && events.message(reply));
    }, stop.signal);
    return {
      post: (request) => {
        if (!stopped) serve(request);
      },
      terminate: () => {
        stopped = true;
        stop.abort();
      },
    };
  };
}
