// Compare in the worker with the user's hook module (P8): run for the configurations that ask for it,
// each call through a hook worker (here the module is imported in-process from a data: URL the way
// hook.worker.ts imports its Blob URL).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { dataUrlHookWorker } from '../../core/hooks/test-hook-worker.ts';
import { DEFAULT_SUMMARIZERS } from '../compaction/compaction-jobs.ts';
import { CompareJobs } from './compare-jobs.ts';
import type { CompareRequest } from './compare-protocol.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();

async function setup(hookSource: string) {
  const sample = await openSample();
  const request: CompareRequest = {
    jobId: 'cmp', conversationId: sample.outcome.conversation.id, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline', hookSource,
    configs: [{ strategy: 'pi', options: {} }, { strategy: 'pi', options: {}, hooks: true }],
  };
  return { ...sample, request, jobs: new CompareJobs(sample.db, sample.counts, DEFAULT_SUMMARIZERS, dataUrlHookWorker) };
}

describe('compare with the user\'s hooks', () => {
  it('runs them only for the configuration that asks; their summary is its summary, a failure is noted on it', async () => {
    const { jobs, request, db } = await setup('export function beforeCompact(e) { return { summary: `From the hook: ${e.entries.length} entries` }; }\nexport function afterCompact() { throw new Error("notifier down"); }');
    const result = await jobs.compare(request, new AbortController().signal, () => undefined);
    const [plain, hooked] = result.results;
    expect(hooked!.label).toBe('pi + hooks');
    expect(plain!.totals.compactions).toBeGreaterThan(0);
    expect(plain!.hookNotes).toBeUndefined();
    expect(Object.values(plain!.compactions[0]!.summaries)[0]).not.toMatch(/^From the hook/);
    expect(hooked!.compactions.length).toBeGreaterThan(0);
    for (const compaction of hooked!.compactions) expect(Object.values(compaction.summaries)[0]).toMatch(/^From the hook: \d+ entries$/);
    expect(hooked!.hookNotes).toHaveLength(hooked!.compactions.length);
    expect(hooked!.hookNotes![0]).toBe(`Call ${hooked!.compactions[0]!.call + 1}: The after-compact hook threw: notifier down. The compaction stands.`);
    // The module is the user's code: a saved comparison does not keep it.
    const { id } = await jobs.compareAndSave(request, { importId: 'i', name: 'hooks' }, new AbortController().signal, () => undefined);
    const row = await db.comparisons.get(id);
    expect(row!.request.configs[1]).toMatchObject({ hooks: true });
    expect(row!.request).not.toHaveProperty('hookSource');
  });

  it('a cancel leaves that configuration uncompacted; without a module the configuration says so', async () => {
    const { jobs, request } = await setup('export const beforeCompact = () => ({ cancel: true, reason: "review first" });');
    const [plain, hooked] = (await jobs.compare(request, new AbortController().signal, () => undefined)).results;
    expect(hooked!.totals.compactions).toBe(0);
    expect(hooked!.totals.peakTokens).toBeGreaterThan(plain!.totals.peakTokens);
    expect(hooked!.notes).toContain(hooked!.hookNotes![0]);
    expect(hooked!.hookNotes![0]).toMatch(/^Call \d+: the before-compact hook cancelled the compaction \(review first\); the replay went on with the context as it was\.$/);
    const none = (await jobs.compare({ ...request, hookSource: '' }, new AbortController().signal, () => undefined)).results[1]!;
    expect(none.error).toMatch(/This configuration runs your hook module, and none is loaded/);
  });
});
