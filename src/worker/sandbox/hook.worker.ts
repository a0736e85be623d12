/**
 * The sandbox worker for one call of the user's hook module (P8): refuses a module that imports,
 * takes the network, storage and code-from-strings away (src/core/hooks/sandbox.ts), then imports
 * the module from a Blob URL and answers with `executeHook`. It is given only the posted event and
 * is terminated after each call (see src/core/hooks/runner.ts and src/worker/sandbox/hook-worker.ts).
 */
import { executeHook, type HookReply } from '../../core/hooks/runner.ts';
import { importProblem, lockdown } from '../../core/hooks/sandbox.ts';
import type { HookMessage } from './hook-worker.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HookMessage>) => void) | null;
  postMessage(message: HookReply): void;
};
// Kept before the lockdown takes postMessage, Blob and createObjectURL away from the global scope.
const post = scope.postMessage.bind(scope);
const moduleUrl = (source: string) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));

scope.onmessage = async ({ data }) => {
  const problem = importProblem(data.source);
  if (problem) {
    post({ ok: false, kind: 'load', ...problem });
    return;
  }
  const url = moduleUrl(data.source);
  lockdown(globalThis);
  const reply = await executeHook(() => import(/* @vite-ignore */ url), data.request, undefined, () => post({ loaded: true }));
  try {
    post(reply);
  } catch (error) {
    // An answer holding functions or other uncloneable values cannot be posted back.
    post({ ok: false, kind: 'throw', message: `its answer could not be sent back (${(error as Error).message}); return plain data` });
  }
};
