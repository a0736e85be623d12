/**
 * Runs a user's custom-strategy plugin (see src/core/strategies/custom-plugin.ts for its interface)
 * in a dedicated worker and validates its answer. Isolation: the worker is same-origin, so it is
 * isolated by what it is NOT given — it receives only the posted plain entries and options (no
 * journal, no database handle, no page), it is a separate worker from the engine, and it is
 * terminated after every run, so nothing it sets up survives to the next one (the throwaway-worker
 * runner, src/core/sandbox/throwaway-worker.ts, which the hook runner uses too).
 */
import { runInThrowawayWorker, type ThrowawayWorker } from '../../core/sandbox/throwaway-worker.ts';
import {
  PluginLoadError, PluginRuntimeError, PluginTimeoutError, pluginErrorLine, validatePluginPlan,
  type PluginEntry, type PluginPlan,
} from '../../core/strategies/custom-plugin.ts';

/** Default time a plugin may take, ms. */
export const DEFAULT_PLUGIN_TIMEOUT_MS = 2000;

export interface PluginRequest {
  source: string;
  entries: PluginEntry[];
  options: Record<string, unknown>;
}

export type PluginReply =
  | { ok: true; plan: unknown }
  | { ok: false; kind: 'load' | 'throw'; message: string; line?: number };

/** The part of a Worker the runner uses (a fake in tests). */
export type PluginWorker = ThrowawayWorker<PluginRequest, PluginReply>;

export type PluginWorkerFactory = () => PluginWorker;

export const browserPluginWorker: PluginWorkerFactory = () =>
  new Worker(new URL('./plugin.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-plugin' }) as unknown as PluginWorker;

function describe(error: unknown): { message: string; line?: number } {
  const e = error as { message?: unknown; stack?: unknown; lineNumber?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  // Firefox puts the line on the error; Chromium only in the stack.
  const line = typeof e?.lineNumber === 'number' ? e.lineNumber : pluginErrorLine(typeof e?.stack === 'string' ? e.stack : undefined);
  return line === undefined ? { message } : { message, line };
}

/**
 * What the worker does with one request, given a way to load the module: load it, call its default
 * export with copies of the data, and describe any failure. Shared with the tests' fake worker.
 */
export async function executePlugin(load: () => Promise<unknown>, entries: PluginEntry[], options: Record<string, unknown>): Promise<PluginReply> {
  let mod: unknown;
  try {
    mod = await load();
  } catch (error) {
    return { ok: false, kind: 'load', ...describe(error) };
  }
  const plan = (mod as { default?: unknown } | null)?.default;
  if (typeof plan !== 'function') {
    return { ok: false, kind: 'load', message: 'it has no default export function: write `export default function plan(entries, options) { ... }`' };
  }
  try {
    return { ok: true, plan: await (plan as (e: PluginEntry[], o: Record<string, unknown>) => unknown)(structuredClone(entries), structuredClone(options)) };
  } catch (error) {
    return { ok: false, kind: 'throw', ...describe(error) };
  }
}

export interface RunPluginOptions {
  /** Time the plugin may take before it is stopped. Default 2,000 ms. */
  timeoutMs?: number;
  /** Makes the worker (default: a module worker from plugin.worker.ts). */
  factory?: PluginWorkerFactory;
  /** The job's signal: aborting it stops the plugin's worker at once. */
  signal?: AbortSignal;
}

/** Runs the plugin once in a fresh worker; resolves with a validated plan or rejects with a Plugin*Error (a CancelledError on cancel). */
export function runPlugin(source: string, entries: PluginEntry[], options: Record<string, unknown>, run: RunPluginOptions = {}): Promise<PluginPlan> {
  const timeoutMs = run.timeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS;
  return runInThrowawayWorker<PluginRequest, PluginReply, PluginPlan>(run.factory ?? browserPluginWorker, { source, entries, options }, {
    timeoutMs,
    timedOut: () => new PluginTimeoutError(timeoutMs),
    read: (data, control) => {
      if (!data.ok) control.reject(data.kind === 'load' ? new PluginLoadError(data.message, data.line) : new PluginRuntimeError(data.message, data.line));
      else control.resolve(validatePluginPlan(data.plan, entries));
    },
    failed: (event) => new PluginRuntimeError(event.message ?? 'the plugin worker failed', event.lineno),
    ...(run.signal ? { signal: run.signal } : {}),
  });
}
