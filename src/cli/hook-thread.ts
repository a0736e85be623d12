/**
 * The worker thread a CLI hook call runs in: reads the user's module, refuses one that imports,
 * takes the host away (src/core/hooks/sandbox.ts: no fetch, no process, no require, no Buffer),
 * then imports the module from its text and answers one request with `executeHook` (the same as
 * the app's hook worker). The CLI stops the thread after the answer or at the time limit.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { executeHook, type HookReply, type HookRequest } from '../core/hooks/runner.ts';
import { importProblem, lockdown } from '../core/hooks/sandbox.ts';

const { moduleUrl } = workerData as { moduleUrl: string };
const port = parentPort;
const post = (message: HookReply) => port?.postMessage(message);

port?.once('message', (request: HookRequest) => {
  let source: string;
  try {
    source = readFileSync(fileURLToPath(moduleUrl), 'utf8');
  } catch (error) {
    post({ ok: false, kind: 'load', message: `it could not be read (${(error as Error).message})` });
    return;
  }
  const problem = importProblem(source);
  if (problem) {
    post({ ok: false, kind: 'load', ...problem });
    return;
  }
  // Named after the file, so a stack trace gives its lines (see hookErrorLine).
  const url = `data:text/javascript;charset=utf-8,${encodeURIComponent(`${source}\n//# sourceURL=${moduleUrl}`)}`;
  lockdown(globalThis);
  void executeHook(() => import(url), request, moduleUrl, () => post({ loaded: true })).then((reply) => {
    try {
      post(reply);
    } catch (error) {
      post({ ok: false, kind: 'throw', message: `its answer could not be sent back (${(error as Error).message}); return plain data` });
    }
  });
});
