/**
 * The sandbox worker for one custom-strategy plugin run: imports the user's module from a Blob URL
 * and answers with its plan or a described failure. It is given only the posted data and is
 * terminated by runPlugin after each run (see plugin-runner.ts for the isolation it relies on).
 */
import { executePlugin, type PluginReply, type PluginRequest } from './plugin-runner.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PluginRequest>) => void) | null;
  postMessage(message: PluginReply): void;
};

scope.onmessage = async ({ data }) => {
  const url = URL.createObjectURL(new Blob([data.source], { type: 'text/javascript' }));
  try {
    const reply = await executePlugin(() => import(/* @vite-ignore */ url), data.entries, data.options);
    try {
      scope.postMessage(reply);
    } catch (error) {
      // A plan holding functions or other uncloneable values cannot be posted back.
      scope.postMessage({ ok: false, kind: 'throw', message: `the returned plan could not be sent back (${(error as Error).message}); return plain arrays of numbers` });
    }
  } finally {
    URL.revokeObjectURL(url);
  }
};
