/**
 * The sandbox worker for one call of the user's hook module (P8): imports the module from a Blob
 * URL and answers with `executeHook`. It is given only the posted event and is terminated after
 * each call (see src/core/hooks/runner.ts and src/worker/hook-worker.ts).
 */
import { executeHook, type HookReply } from '../core/hooks/runner.ts';
import type { HookMessage } from './hook-worker.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HookMessage>) => void) | null;
  postMessage(message: HookReply): void;
};

scope.onmessage = async ({ data }) => {
  const url = URL.createObjectURL(new Blob([data.source], { type: 'text/javascript' }));
  try {
    const reply = await executeHook(() => import(/* @vite-ignore */ url), data.request, undefined, () => scope.postMessage({ loaded: true }));
    try {
      scope.postMessage(reply);
    } catch (error) {
      // An answer holding functions or other uncloneable values cannot be posted back.
      scope.postMessage({ ok: false, kind: 'throw', message: `its answer could not be sent back (${(error as Error).message}); return plain data` });
    }
  } finally {
    URL.revokeObjectURL(url);
  }
};
