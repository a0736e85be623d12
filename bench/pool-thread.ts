/**
 * One count worker of the pool as a Node `worker_threads` thread (started by bench/pool-threads.ts):
 * the same handler as the app's count worker (src/worker/count-pool/count-pool-serve.ts) on the thread's port.
 */
import { parentPort } from 'node:worker_threads';
import type { CountRequest } from '../src/worker/count-pool/count-pool-protocol.ts';
import { countServer } from '../src/worker/count-pool/count-pool-serve.ts';

const port = parentPort;
if (port === null) throw new Error('bench/pool-thread.ts runs only as a worker thread (started by bench/pool-threads.ts).');
const serve = countServer((reply, transfer) => port.postMessage(reply, transfer ?? []));
port.on('message', (request: CountRequest) => serve(request));
