import { describe, expect, it } from 'vitest';
import { isCancelled } from '../cancel.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { runCompaction } from '../compaction/run.ts';
import type { Strategy } from '../compaction/strategy.ts';
import { echoSummarizer, linkEntries, makeEntries, makeInput } from '../compaction/testing.ts';
import { piStrategy } from '../strategies/pi.ts';
import { executeHook, loadHookRunner, type HookReply, type HookRequest, type HookWorker } from './runner.ts';
import {
  askBeforeFork, HookRefusedError, HookLoadError, HookResultError, HookRuntimeError, HookTimeoutError,
  notifyAfterCompact, userCompactionHooks, type AfterCompactEvent, type BeforeCompactEvent, type BeforeForkEvent,
} from './user-hooks.ts';

const prompts = loadPrompts();
const tok = (n: number) => 'x'.repeat(4 * n);
const entries = linkEntries(makeEntries([{ user: `a ${tok(800)}` }, { assistant: `b ${tok(800)}` }, { user: `c ${tok(800)}` }, { assistant: `d ${tok(800)}` }]));
const strategy = piStrategy as unknown as Strategy;
const raw = { keepRecentTokens: 900 };

/** Runs `module` in-process the way the sandbox workers do; `silent` never answers (a hung hook). */
function fakeWorkers(module: Record<string, unknown> | (() => Promise<unknown>), log: { spawned: number; terminated: number; silent?: boolean }) {
  const load = typeof module === 'function' ? module : () => Promise.resolve(module);
  return (): HookWorker => {
    log.spawned++;
    const worker: HookWorker = {
      onmessage: null,
      onerror: null,
      postMessage(request: HookRequest) {
        if (log.silent && request.name !== undefined) return worker.onmessage?.({ data: { loaded: true } });
        void executeHook(load, request, undefined, () => worker.onmessage?.({ data: { loaded: true } })).then((data: HookReply) => worker.onmessage?.({ data }));
      },
      terminate() {
        log.terminated++;
      },
    };
    return worker;
  };
}

async function compactWith(module: Record<string, unknown>) {
  const log = { spawned: 0, terminated: 0 };
  const runner = await loadHookRunner(fakeWorkers(module, log));
  const input = makeInput(entries);
  const summarizer = echoSummarizer();
  const outcome = await runCompaction({ strategy, input, rawOptions: raw, summarizer, prompts, hooks: userCompactionHooks(runner, input) });
  return { outcome, summarizer, log, runner };
}

describe('before-compact', () => {
  it('sees the plan and the entries to summarize, and its summary replaces the summarizer', async () => {
    const seen: BeforeCompactEvent[] = [];
    const { outcome, summarizer, log } = await compactWith({ beforeCompact: (event: BeforeCompactEvent) => { seen.push(event); return { summary: `My summary of ${event.entries.length} entries` }; } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ strategy: 'pi', trigger: { rule: expect.any(String) }, cut: { entryId: 'e2' }, counter: 'chars/4' });
    expect(seen[0]!.entries.map((e) => e.id)).toEqual(['e0', 'e1']);
    expect(seen[0]!.entries[0]!.text).toMatch(/^a x/);
    expect(summarizer.requests).toHaveLength(0);
    expect(outcome.summaries.history).toBe('My summary of 2 entries');
    expect(outcome.record.summarizer).toBe('hook');
    // One worker to list the hooks, one per call, each terminated.
    expect(log).toMatchObject({ spawned: 2, terminated: 2 });
  });

  it('cancels with its reason; nothing is made', async () => {
    await expect(compactWith({ beforeCompact: () => ({ cancel: true, reason: 'not on Fridays' }) })).rejects.toThrow(new HookRefusedError('before-compact', 'not on Fridays'));
  });

  it('returning nothing lets the summarizer run', async () => {
    const { summarizer } = await compactWith({ beforeCompact: () => undefined });
    expect(summarizer.requests).toHaveLength(1);
  });

  it('a wrong answer, a throw and a hang are each a clear error', async () => {
    await expect(compactWith({ beforeCompact: () => ({ summary: '' }) })).rejects.toThrow(HookResultError);
    await expect(compactWith({ beforeCompact: () => ({ sumary: 'typo' }) })).rejects.toThrow('The before-compact hook returned an object with "sumary"; expected nothing, { cancel: true, reason?: string } or { summary: "non-empty text" }.');
    await expect(compactWith({ beforeCompact: () => 'text' })).rejects.toThrow(HookResultError);
    await expect(compactWith({ beforeCompact: () => { throw new Error('boom'); } })).rejects.toThrow(new HookRuntimeError('before-compact', 'boom'));
    const log = { spawned: 0, terminated: 0, silent: true };
    const runner = await loadHookRunner(fakeWorkers({ beforeCompact: () => undefined }, log), { timeoutMs: 30 });
    const input = makeInput(entries);
    await expect(runCompaction({ strategy, input, rawOptions: raw, summarizer: echoSummarizer(), prompts, hooks: userCompactionHooks(runner, input) })).rejects.toThrow(new HookTimeoutError('before-compact', 30));
    expect(log.terminated).toBe(log.spawned);
  });
});

describe('after-compact', () => {
  it('a hung hook is stopped at once when the job is cancelled, its worker terminated', async () => {
    const log = { spawned: 0, terminated: 0, silent: true };
    const controller = new AbortController();
    const runner = await loadHookRunner(fakeWorkers({ beforeCompact: () => undefined }, log), { signal: controller.signal });
    const input = makeInput(entries);
    const pending = runCompaction({ strategy, input, rawOptions: raw, summarizer: echoSummarizer(), prompts, hooks: userCompactionHooks(runner, input) });
    while (log.spawned < 2) await new Promise((resolve) => setTimeout(resolve, 0)); // the call's worker is up, its hook hung
    controller.abort();
    expect(log.terminated).toBe(2);
    expect(isCancelled(await pending.catch((error: unknown) => error))).toBe(true);
    expect(log.terminated).toBe(log.spawned);
  });

  it('is told what the run made; its failure is a note, not a lost run', async () => {
    const seen: AfterCompactEvent[] = [];
    const { outcome, runner } = await compactWith({ afterCompact: (event: AfterCompactEvent) => void seen.push(event) });
    expect(await notifyAfterCompact(runner, outcome)).toBeUndefined();
    expect(seen[0]).toMatchObject({ strategy: 'pi', summaryApplied: true, firstKeptEntryId: 'e2', tokensAfter: outcome.context.tokensAfter });
    expect(seen[0]!.summaries.history).toBe(outcome.summaries.history);
    const failing = await compactWith({ afterCompact: () => { throw new Error('webhook down'); } });
    expect(await notifyAfterCompact(failing.runner, failing.outcome)).toBe('The after-compact hook threw: webhook down.');
  });
});

describe('before-fork', () => {
  const branch = entries.map((entry) => ({ id: entry.id }));

  it('is asked only when the compaction takes the branch up at an earlier point; may cancel', async () => {
    const seen: BeforeForkEvent[] = [];
    const runner = await loadHookRunner(fakeWorkers({ beforeFork: (event: BeforeForkEvent) => { seen.push(event); return event.entriesLeftOut > 1 ? { cancel: true, reason: 'too far back' } : undefined; } }, { spawned: 0, terminated: 0 }));
    await askBeforeFork(runner, branch, 4);
    expect(seen).toEqual([]);
    await askBeforeFork(runner, branch, 3);
    expect(seen).toEqual([{ entryId: 'e2', entryIndex: 2, entriesLeftOut: 1 }]);
    await expect(askBeforeFork(runner, branch, 2)).rejects.toThrow('The before-fork hook cancelled the fork: too far back. Nothing was changed.');
    const wrong = await loadHookRunner(fakeWorkers({ beforeFork: () => ({ cancel: 'yes' }) }, { spawned: 0, terminated: 0 }));
    await expect(askBeforeFork(wrong, branch, 2)).rejects.toThrow(HookResultError);
  });
});

describe('loading', () => {
  it('a module without hooks, or one that fails to load, is refused before anything runs', async () => {
    await expect(loadHookRunner(fakeWorkers({ plan: () => 1 }, { spawned: 0, terminated: 0 }))).rejects.toThrow(/exports none of beforeCompact, afterCompact, beforeFork/);
    await expect(loadHookRunner(fakeWorkers(() => Promise.reject(new SyntaxError('Unexpected token')), { spawned: 0, terminated: 0 }))).rejects.toThrow(new HookLoadError('Unexpected token'));
    const runner = await loadHookRunner(fakeWorkers({ afterCompact: () => undefined, helper: 1 }, { spawned: 0, terminated: 0 }));
    expect([...runner.hooks]).toEqual(['after-compact']);
    // Without before-compact, the compaction has no hook to wait for.
    expect(userCompactionHooks(runner, makeInput(entries))).toEqual({});
  });
});
