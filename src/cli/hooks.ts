/**
 * `--hook <module.mjs>`: the user's hook module for `compact`, each call in its own worker thread
 * (stopped after it answers or at the time limit), so a hook that loops or crashes cannot take the
 * command with it.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadHookRunner, type HookReply, type HookRequest, type HookWorker } from '../core/hooks/runner.ts';
import type { HookRunner } from '../core/hooks/user-hooks.ts';

const THREAD = fileURLToPath(new URL('./hook-thread.ts', import.meta.url));
/** The thread is TypeScript like the rest of the CLI: it loads through tsx's require hook. */
const BOOTSTRAP = `require('tsx/cjs/api').register(); require(${JSON.stringify(THREAD)});`;

/** A worker thread behind the HookWorker interface the runner speaks. */
function threadWorker(moduleUrl: string): HookWorker {
  const thread = new Worker(BOOTSTRAP, { eval: true, workerData: { moduleUrl } });
  const worker: HookWorker = {
    onmessage: null,
    onerror: null,
    postMessage: (message: HookRequest) => thread.postMessage(message),
    terminate: () => void thread.terminate(),
  };
  thread.on('message', (data: HookReply) => worker.onmessage?.({ data }));
  thread.on('error', (error: Error) => worker.onerror?.({ message: error.message }));
  return worker;
}

/** Loads the module at `path` (relative to the working directory) and learns its hooks. */
export function loadCliHooks(path: string, timeoutMs?: number): Promise<HookRunner> {
  const moduleUrl = pathToFileURL(resolve(path)).href;
  return loadHookRunner(() => threadWorker(moduleUrl), timeoutMs !== undefined ? { timeoutMs } : {});
}
