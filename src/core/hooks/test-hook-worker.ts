/**
 * For tests only: a HookWorker that loads the hook module in this process from a data: URL and
 * answers through executeHook, as hook.worker does, without a worker or its sandbox. Each source
 * it is given is passed to `onSpawn` first, so a test can count the workers a job asked for.
 */
import { executeHook, type HookReply, type HookRequest, type HookWorker } from './runner.ts';

export function dataUrlHookWorker(source: string, onSpawn?: (source: string) => void): HookWorker {
  onSpawn?.(source);
  const worker: HookWorker = {
    onmessage: null,
    onerror: null,
    postMessage(request: HookRequest) {
      const load = () => import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(source)}`);
      void executeHook(load, request, undefined, () => worker.onmessage?.({ data: { loaded: true } })).then((data: HookReply) => worker.onmessage?.({ data }));
    },
    terminate: () => undefined,
  };
  return worker;
}
