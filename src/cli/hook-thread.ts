/**
 * The worker thread a CLI hook call runs in: imports the user's module by file URL and answers one
 * request with `executeHook` (the same as the app's hook worker). The CLI stops the thread after
 * the answer or at the time limit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { executeHook, type HookRequest } from '../core/hooks/runner.ts';

const { moduleUrl } = workerData as { moduleUrl: string };

parentPort?.once('message', (request: HookRequest) => {
  void executeHook(() => import(moduleUrl), request, moduleUrl, () => parentPort?.postMessage({ loaded: true })).then((reply) => {
    try {
      parentPort?.postMessage(reply);
    } catch (error) {
      parentPort?.postMessage({ ok: false, kind: 'throw', message: `its answer could not be sent back (${(error as Error).message}); return plain data` });
    }
  });
});
