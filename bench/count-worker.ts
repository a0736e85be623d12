/**
 * The worker side of the token-counting round trip (run in a `worker_threads` Worker): loads the
 * same o200k counter the app's worker uses, then answers each posted text with its token count.
 */
import { parentPort } from 'node:worker_threads';
import { getCounter } from '../src/core/tokens/index.ts';

const port = parentPort;
if (port === null) throw new Error('bench/count-worker.ts runs only as a worker thread (started by bench/worker-count.ts).');
const counter = await getCounter('o200k');
port.on('message', (text: string) => port.postMessage(counter.count(text)));
// Tells bench/worker-count.ts the rank table is loaded.
port.postMessage('ready');
