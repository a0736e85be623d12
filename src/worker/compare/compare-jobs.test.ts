import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { failingSummarizer, hangingSummarizer } from '../../core/compaction/testing.ts';
import { SummarizerError } from '../../core/compaction/summarizer.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { loadEntries } from '../../db/conversations.ts';
import { CompareJobs } from './compare-jobs.ts';
import type { CompareProgress, CompareRequest } from './compare-protocol.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();

async function setup() {
  const sample = await openSample();
  const request: CompareRequest = {
    jobId: 'cmp', conversationId: sample.outcome.conversation.id, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline', priceModel: 'claude-sonnet-4-5',
    configs: [{ strategy: 'pi', options: {} }, { strategy: 'sliding-window', options: { windowSize: 20 } }, { strategy: 'observation-masking', options: {} }],
  };
  return { ...sample, request };
}

describe('compare in the worker', () => {
  it('replays every configuration over the stored journal, reports progress, and changes nothing stored', async () => {
    const { db, counts, request, outcome } = await setup();
    const before = await loadEntries(db, outcome.conversation.id);
    const progress: CompareProgress[] = [];
    const result = await new CompareJobs(db, counts).compare(request, new AbortController().signal, (p) => progress.push(p));
    expect(result.results.map((r) => r.label)).toEqual(['pi', 'sliding-window (windowSize=20)', 'observation-masking']);
    for (const r of result.results) {
      expect(r.error).toBeUndefined();
      expect(r.calls).toHaveLength(105);
      expect(r.totals.cost).toBeGreaterThan(0);
      expect(r.totals.costModel).toBe('claude-sonnet-4-5');
    }
    expect(result.results[0]!.totals.compactions).toBeGreaterThan(0);
    expect(result.entryIds.length).toBeGreaterThan(105);
    expect(progress.at(-1)).toMatchObject({ jobId: 'cmp', config: 2, configs: 3, phase: 'done' });
    expect(await loadEntries(db, outcome.conversation.id)).toEqual(before);
    expect(await db.compactions.count()).toBe(0);
  });

  it('compareAndSave saves the result in the worker without the API key and returns its id', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompareJobs(db, counts, { remote: () => createOfflineSummarizer() });
    const remote = { presetId: 'openai', api: 'openai' as const, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-secret-never-stored' };
    const { id } = await jobs.compareAndSave({ ...request, summarizer: 'remote', remote, configs: [{ strategy: 'pi', options: {} }] }, { importId: 'imp-1', name: 'pi on the sample' }, new AbortController().signal, () => undefined);
    const row = await db.comparisons.get(id);
    expect(row).toMatchObject({ name: 'pi on the sample', importId: 'imp-1', request: { summarizer: 'remote', remote: { model: 'gpt-4o-mini' } } });
    expect(row!.result.results[0]!.calls).toHaveLength(105);
    expect(JSON.stringify(row)).not.toContain('sk-secret');
  });

  it('a failing summarizer stops the configurations that need a summary and leaves the others', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompareJobs(db, counts, { offline: () => failingSummarizer(new SummarizerError('Rate limited (429); try again in 20 s.')) });
    const result = await jobs.compare(request, new AbortController().signal, () => undefined);
    expect(result.results[0]!.error).toMatch(/Rate limited \(429\)/);
    expect(result.results[1]!.error).toBeUndefined();
    expect(result.results[2]!.error).toBeUndefined();
    expect(result.results[2]!.calls).toHaveLength(105);
  });

  it('is cancelled through the engine’s job id', async () => {
    const { db, engine, request } = await setup();
    (engine as unknown as { comparisons: CompareJobs }).comparisons = new CompareJobs(db, async (id, counter) => (await engine.countTokens('c', id, counter, () => undefined)).totals, { offline: () => hangingSummarizer() });
    const running = engine.compare(request, () => undefined);
    setTimeout(() => engine.cancel('cmp'), 50);
    await expect(running).rejects.toThrow(/cancelled/i);
  });

  it('refuses an empty or oversized compare and an unknown conversation', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompareJobs(db, counts, { offline: () => createOfflineSummarizer() });
    const signal = new AbortController().signal;
    await expect(jobs.compare({ ...request, configs: [] }, signal, () => undefined)).rejects.toThrow(/at least one/);
    await expect(jobs.compare({ ...request, configs: Array.from({ length: 9 }, () => ({ strategy: 'pi', options: {} })) }, signal, () => undefined)).rejects.toThrow(/at most 8/);
    await expect(jobs.compare({ ...request, conversationId: 'nope' }, signal, () => undefined)).rejects.toThrow(/No conversation nope/);
  });
});
