/**
 * Runs a user's hook module in a sandbox worker, one fresh worker per call, stopped after it answers
 * or after the time limit. The worker itself is injected (a Web Worker in the app, a worker thread
 * in the CLI, an in-process fake in tests); both sides share `executeHook`, so they load the
 * module and describe failures the same way. The worker's life (spawn, time limit, terminate,
 * cancel) is the one every throwaway worker has (core/sandbox/throwaway-worker.ts).
 */
import { runInThrowawayWorker, type ThrowawayWorker } from '../sandbox/throwaway-worker.ts';
import {
  DEFAULT_HOOK_TIMEOUT_MS, HOOK_EXPORTS, HookLoadError, HookRuntimeError, HookTimeoutError,
  type HookName, type HookRunner,
} from './user-hooks.ts';

/** Posted to the worker: no `name` asks which hooks the module exports. */
export interface HookRequest {
  name?: HookName;
  event?: unknown;
}

/** `loaded` comes first when the module has loaded: the hook's time limit starts there. */
export type HookReply =
  | { loaded: true }
  | { ok: true; value: unknown }
  | { ok: false; kind: 'load' | 'throw'; message: string; line?: number };

/** Time a worker may take to start and load the module, ms (a CLI thread boots a TypeScript loader first). */
export const DEFAULT_HOOK_LOAD_TIMEOUT_MS = 15_000;

/** The part of a worker the runner uses. */
export type HookWorker = ThrowawayWorker<HookRequest, HookReply>;

/** A line number in a stack trace of the module (blob: URL in the app, file: URL in the CLI). */
export function hookErrorLine(stack: string | undefined, moduleUrl?: string): number | undefined {
  const pattern = moduleUrl ? new RegExp(`${moduleUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+):\\d+`) : /blob:[^\s)]*?:(\d+):\d+/;
  const match = stack?.match(pattern);
  return match ? Number(match[1]) : undefined;
}

function described(error: unknown, moduleUrl?: string): { message: string; line?: number } {
  const e = error as { message?: unknown; stack?: unknown; lineNumber?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const line = typeof e?.lineNumber === 'number' ? e.lineNumber : hookErrorLine(typeof e?.stack === 'string' ? e.stack : undefined, moduleUrl);
  return line === undefined ? { message } : { message, line };
}

/** What the worker does with one request, given a way to load the module. */
export async function executeHook(load: () => Promise<unknown>, request: HookRequest, moduleUrl?: string, onLoaded?: () => void): Promise<HookReply> {
  let mod: Record<string, unknown>;
  try {
    mod = (await load()) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, kind: 'load', ...described(error, moduleUrl) };
  }
  onLoaded?.();
  const exported = (Object.entries(HOOK_EXPORTS) as Array<[HookName, string]>).filter(([, key]) => typeof mod?.[key] === 'function');
  if (request.name === undefined) {
    if (exported.length === 0) {
      return { ok: false, kind: 'load', message: `it exports none of ${Object.values(HOOK_EXPORTS).join(', ')}: write e.g. \`export function beforeCompact(event) { ... }\`` };
    }
    return { ok: true, value: exported.map(([name]) => name) };
  }
  const hook = mod[HOOK_EXPORTS[request.name]];
  if (typeof hook !== 'function') return { ok: false, kind: 'load', message: `it does not export ${HOOK_EXPORTS[request.name]}` };
  try {
    return { ok: true, value: await (hook as (event: unknown) => unknown)(structuredClone(request.event)) };
  } catch (error) {
    return { ok: false, kind: 'throw', ...described(error, moduleUrl) };
  }
}

/** One request in a fresh worker: the load under its own limit, then the hook under the time limit. */
function ask(spawn: () => HookWorker, request: HookRequest, timeoutMs: number, loadTimeoutMs: number, signal?: AbortSignal): Promise<unknown> {
  const hook = request.name;
  const hung = () => (hook ? new HookTimeoutError(hook, timeoutMs) : new HookLoadError(`listing its hooks took longer than ${timeoutMs.toLocaleString('en-US')} ms`));
  return runInThrowawayWorker<HookRequest, HookReply, unknown>(spawn, request, {
    timeoutMs: loadTimeoutMs,
    timedOut: () => new HookLoadError(`it did not load within ${loadTimeoutMs.toLocaleString('en-US')} ms`),
    read: (data, control) => {
      if ('loaded' in data) control.restartTimer(timeoutMs, hung);
      else if (data.ok) control.resolve(data.value);
      else if (data.kind === 'load' || !hook) control.reject(new HookLoadError(data.message, data.line));
      else control.reject(new HookRuntimeError(hook, data.message, data.line));
    },
    failed: (event) => (hook ? new HookRuntimeError(hook, event.message ?? 'the hook worker failed', event.lineno) : new HookLoadError(event.message ?? 'the hook worker failed', event.lineno)),
    ...(signal ? { signal } : {}),
  });
}

export interface LoadHooksOptions {
  /** Time each hook call may take once the module is loaded. Default 2,000 ms. */
  timeoutMs?: number;
  /** Time a worker may take to start and load the module. Default 15,000 ms. */
  loadTimeoutMs?: number;
  /** The job's signal: aborting it stops a hook's worker at once, and the call rejects with a CancelledError. */
  signal?: AbortSignal;
}

/** Loads the module once to learn its hooks (a load error rejects here), then runs each call in its own worker. */
export async function loadHookRunner(spawn: () => HookWorker, options: LoadHooksOptions = {}): Promise<HookRunner> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_HOOK_LOAD_TIMEOUT_MS;
  const names = (await ask(spawn, {}, timeoutMs, loadTimeoutMs, options.signal)) as HookName[];
  return {
    hooks: new Set(names),
    call: (name, event) => ask(spawn, { name, event }, timeoutMs, loadTimeoutMs, options.signal),
  };
}
