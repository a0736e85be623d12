/**
 * The sandbox worker for one custom-strategy plugin run: refuses a module that imports, takes the
 * network, storage and code-from-strings away (src/core/hooks/sandbox.ts), then imports the user's
 * module from a Blob URL and answers with its plan or a described failure. It is given only the
 * posted data and is terminated by runPlugin after each run (see plugin-runner.ts).
 */
import { importProblem, lockdown } from '../../core/hooks/sandbox.ts';
import { executePlugin, type PluginReply, type PluginRequest } from './plugin-runner.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PluginRequest>) => void) | null;
  postMessage(message: PluginReply): void;
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
  const reply = await executePlugin(() => import(/* @vite-ignore */ url), data.entries, data.options);
  try {
    post(reply);
  } catch (error) {
    // A plan holding functions or other uncloneable values cannot be posted back.
    post({ ok: false, kind: 'throw', message: `the returned plan could not be sent back (${(error as Error).message}); return plain arrays of numbers` });
  }
};
