import { describe, expect, it } from 'vitest';
import { isCancelled } from '../../core/cancel.ts';
import { linkEntries, makeEntries, makeInput } from '../../core/compaction/testing.ts';
import {
  PluginLoadError, PluginPlanError, PluginRuntimeError, PluginTimeoutError, pluginEntries, type PluginEntry,
} from '../../core/strategies/custom-plugin.ts';
import { executePlugin, runPlugin, type PluginReply, type PluginRequest, type PluginWorker } from './plugin-runner.ts';

const ENTRIES = pluginEntries(makeInput(linkEntries(makeEntries([
  { system: 'sys' }, { user: 'task' }, { assistant: '', calls: [{ id: 'c1', name: 'read', input: {} }] }, { tool: 'out', callId: 'c1' }, { assistant: 'done' },
]))));

/** A worker that runs `module` in-process the way plugin.worker.ts does (no source evaluation). */
function fakeWorker(module: () => Promise<unknown>, log: { terminated: number; requests: PluginRequest[] }): () => PluginWorker {
  return () => {
    const worker: PluginWorker = {
      onmessage: null,
      onerror: null,
      postMessage(request) {
        log.requests.push(request);
        void executePlugin(module, request.entries, request.options).then((data: PluginReply) => worker.onmessage?.({ data }));
      },
      terminate() {
        log.terminated++;
      },
    };
    return worker;
  };
}

function plugin(fn: (entries: PluginEntry[], options: Record<string, unknown>) => unknown) {
  return () => Promise.resolve({ default: fn });
}

describe('runPlugin', () => {
  it('resolves with the validated plan and terminates the worker', async () => {
    const log = { terminated: 0, requests: [] as PluginRequest[] };
    const plan = await runPlugin('src', ENTRIES, { recent: 3 }, {
      factory: fakeWorker(plugin((entries, options) => ({ keep: [0, ...entries.slice(-(options.recent as number)).map((e) => e.index)], summarize: [[1, 1]] })), log),
    });
    expect(plan).toEqual({ keep: [0, 2, 3, 4], summarize: [[1, 1]] });
    expect(log.terminated).toBe(1);
    expect(log.requests[0]).toMatchObject({ source: 'src', options: { recent: 3 } });
  });

  it('accepts an async plugin', async () => {
    const log = { terminated: 0, requests: [] };
    await expect(runPlugin('', ENTRIES, {}, { factory: fakeWorker(plugin(async () => ({ keep: [0, 1, 2, 3, 4] })), log) })).resolves.toEqual({ keep: [0, 1, 2, 3, 4], summarize: [] });
  });

  it('rejects an invalid plan, naming the violations', async () => {
    const log = { terminated: 0, requests: [] };
    const run = runPlugin('', ENTRIES, {}, { factory: fakeWorker(plugin(() => ({ keep: [1, 2, 7] })), log) });
    await expect(run).rejects.toBeInstanceOf(PluginPlanError);
    await expect(run).rejects.toThrow(/keep\[2\]: index 7 is outside 0..4\n- system entry 0 \(e0\) must be kept\n- tool call c1 \(entry 2\) and its result \(entry 3\) are split/);
    expect(log.terminated).toBe(1);
  });

  it('reports what the plugin threw, with its line', async () => {
    const log = { terminated: 0, requests: [] };
    const error = Object.assign(new Error('boom'), { stack: 'Error: boom\n    at plan (blob:http://localhost/abc:3:9)' });
    const run = runPlugin('', ENTRIES, {}, { factory: fakeWorker(plugin(() => { throw error; }), log) });
    await expect(run).rejects.toBeInstanceOf(PluginRuntimeError);
    await expect(run).rejects.toThrow('The plugin threw: boom (line 3).');
  });

  it('reports a module that does not load or has no default export', async () => {
    const log = { terminated: 0, requests: [] };
    const syntax = runPlugin('', ENTRIES, {}, { factory: fakeWorker(() => Promise.reject(new SyntaxError('Unexpected token }')), log) });
    await expect(syntax).rejects.toBeInstanceOf(PluginLoadError);
    await expect(syntax).rejects.toThrow(/did not load: Unexpected token }/);
    await expect(runPlugin('', ENTRIES, {}, { factory: fakeWorker(() => Promise.resolve({}), log) })).rejects.toThrow(/no default export function/);
  });

  it('stops a plugin that takes too long', async () => {
    const log = { terminated: 0, requests: [] };
    const run = runPlugin('', ENTRIES, {}, { timeoutMs: 20, factory: fakeWorker(plugin(() => new Promise(() => {})), log) });
    await expect(run).rejects.toBeInstanceOf(PluginTimeoutError);
    await expect(run).rejects.toThrow('did not answer within 20 ms');
    expect(log.terminated).toBe(1);
  });

  it('stops the plugin at once when its job is cancelled', async () => {
    const log = { terminated: 0, requests: [] };
    const controller = new AbortController();
    const run = runPlugin('', ENTRIES, {}, { signal: controller.signal, factory: fakeWorker(plugin(() => new Promise(() => {})), log) });
    controller.abort();
    expect(isCancelled(await run.catch((error: unknown) => error))).toBe(true);
    expect(log.terminated).toBe(1);
  });

  it('reports a worker error event', async () => {
    let terminated = 0;
    const worker: PluginWorker = {
      onmessage: null, onerror: null, terminate: () => { terminated++; },
      postMessage() {
        queueMicrotask(() => worker.onerror?.({ message: 'Uncaught RangeError: too much recursion', lineno: 12 }));
      },
    };
    await expect(runPlugin('', ENTRIES, {}, { factory: () => worker })).rejects.toThrow('The plugin threw: Uncaught RangeError: too much recursion (line 12).');
    expect(terminated).toBe(1);
  });

  it('gives the plugin copies, never the caller\'s objects', async () => {
    const seen: PluginEntry[][] = [];
    await executePlugin(plugin((entries) => { seen.push(entries); entries[0]!.text = 'changed'; return { keep: [] }; }), ENTRIES, {});
    expect(seen[0]).not.toBe(ENTRIES);
    expect(ENTRIES[0]!.text).toBe('sys');
  });
});
