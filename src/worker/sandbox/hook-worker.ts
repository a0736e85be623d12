/**
 * The user's hook module in the app (P8): each call runs in its own module worker, like the custom
 * plugin (same-origin, so isolated by what it is not given: only the posted event, no journal, no
 * database, no page), stopped after it answers or at the time limit.
 */
import type { HookRequest, HookWorker } from '../../core/hooks/runner.ts';

/** What the page's worker posts to hook.worker.ts: the module's source and one request. */
export interface HookMessage {
  source: string;
  request: HookRequest;
}

/** Makes the sandbox worker for one call of the module `source` (a fake in tests). */
export type HookWorkerFactory = (source: string) => HookWorker;

export const browserHookWorker: HookWorkerFactory = (source) => {
  const worker = new Worker(new URL('./hook.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-hook' });
  const facade: HookWorker = {
    onmessage: null,
    onerror: null,
    postMessage: (request) => worker.postMessage({ source, request } satisfies HookMessage),
    terminate: () => worker.terminate(),
  };
  worker.onmessage = (event) => facade.onmessage?.({ data: event.data });
  worker.onerror = (event) => facade.onerror?.(event);
  return facade;
};
