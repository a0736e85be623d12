import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { failingSummarizer, hangingSummarizer } from '../../core/compaction/testing.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { loadEntries } from '../../db/conversations.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import type { CompactRequest } from '../engine/protocol.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();

async function setup() {
  const sample = await openSample();
  const request = (strategy: CompactRequest['strategy'], summarizer = 'offline'): CompactRequest => ({
    jobId: 'j', conversationId: sample.outcome.conversation.id, strategy, options: {}, counter: 'chars4', contextWindow: 200_000, summarizer, now: 1_800_000_000_000,
  });
  return { ...sample, request };
}

describe('compaction in the worker', () => {
  it('the layered trigger follows the window the user chose (L7)', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompactionJobs(db, counts);
    const preview = await jobs.plan({ ...request('layered'), contextWindow: 50_000 });
    expect(preview.plan.trigger.numbers.threshold).toBe(40_000);
    const explicit = await jobs.plan({ ...request('layered'), contextWindow: 50_000, options: { contextWindow: '100000' } });
    expect(explicit.plan.trigger.numbers.threshold).toBe(80_000);
  });

  it('plans, runs and stores a run that points at journal entries by id; a second run continues from it', async () => {
    const { db, counts, request, outcome } = await setup();
    const jobs = new CompactionJobs(db, counts);
    const preview = await jobs.plan(request('pi'));
    expect(preview.plan.cut?.index).toBeGreaterThan(0);
    expect(preview.entryIds).toHaveLength(preview.plan.fates.length);
    const before = await loadEntries(db, outcome.conversation.id);
    const row = await jobs.compact(request('pi'), new AbortController().signal, () => undefined);
    expect(row.record.summary_applied).toBe(true);
    expect(row.context.some((item) => item.origin === 'journal')).toBe(true);
    expect(row.context.filter((item) => item.origin === 'summary')).toHaveLength(1);
    expect(await db.compactions.count()).toBe(1);
    expect(await loadEntries(db, outcome.conversation.id)).toEqual(before);
    const again = await jobs.plan(request('pi'));
    expect(again.previousRunId).toBe(row.id);
  });

  it('a summarizer failure, a timeout or a cancel stores nothing', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompactionJobs(db, counts, { failing: () => failingSummarizer(new Error('model down')), hanging: () => hangingSummarizer() });
    await expect(jobs.compact(request('pi', 'failing'), new AbortController().signal, () => undefined)).rejects.toThrow('model down');
    await expect(jobs.compact({ ...request('pi', 'hanging'), timeoutMs: 30 }, new AbortController().signal, () => undefined)).rejects.toThrow(/timed out/);
    const controller = new AbortController();
    const pending = jobs.compact(request('pi', 'hanging'), controller.signal, () => undefined);
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow(/cancelled/);
    expect(await db.compactions.count()).toBe(0);
  });

  it('a conversation too short to compact says so and stores nothing', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompactionJobs(db, counts, { offline: () => createOfflineSummarizer() });
    await expect(jobs.compact(request('layered'), new AbortController().signal, () => undefined)).rejects.toThrow(/nothing older to archive/);
    expect(await db.compactions.count()).toBe(0);
  });

  it('an option out of range is refused with its name and range', async () => {
    const { db, counts, request } = await setup();
    const jobs = new CompactionJobs(db, counts);
    await expect(jobs.plan({ ...request('pi'), options: { keepRecentTokens: -1 } })).rejects.toThrow(/keepRecentTokens must be a whole number from 0/);
  });
});
