/**
 * The worker side of the token-counting round trip (run in a `worker_threads` Worker): loads the
 * same o200k counter the app's worker uses, then answers each posted request: `count` with the
 * text's token count and the time the count took inside the worker, `echo` with the text's length
 * only (the round trip without the count: what the copy in and the reply cost).
 */
import { parentPort } from 'node:worker_threads';
import { getCounter } from '../src/core/tokens/index.ts';

const port = parentPort;
if (port === null) throw new Error('bench/count-worker.ts runs only as a worker thread (started by bench/worker-count.ts).');
const counter = await getCounter('o200k');
port.on('message', (request: { kind: 'count' | 'echo'; text: string }) => {
  if (request.kind === 'echo') {
    port.postMessage({ length: request.text.length });
    return;
  }
  const start = performance.now();
  const tokens = counter.count(request.text);
  port.postMessage({ tokens, ms: performance.now() - start });
});
// Tells bench/worker-count.ts the rank table is loaded.
port.postMessage('ready');
