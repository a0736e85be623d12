/**
 * A stored compaction run keeps the unseen prefix it was computed with, so reopening it states the
 * same "sent = transcript + not in it" figures as its plan did, whatever estimate is entered later.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sentSentence } from '../../core/replay/session-prefix.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import type { CompactRequest } from '../engine/protocol.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();

describe('a stored run records its unseen prefix', () => {
  it('Claude Code sample: the recorded prefix (18,094 from call 2) is stored with the run and gives the plan’s sentences again', async () => {
    const { db, counts, outcome } = await openSample();
    const jobs = new CompactionJobs(db, counts);
    const request: CompactRequest = { jobId: 'j', conversationId: outcome.conversation.id, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 80_000, summarizer: 'offline', continueFrom: 'none', now: 1_800_000_000_000 };
    const preview = await jobs.plan(request);
    const row = await jobs.compact(request, new AbortController().signal, () => undefined);
    const stored = await db.compactions.get(row.id);
    expect(stored?.unseenPrefix).toMatchObject({ tokens: 18_094, source: 'recorded', call: 1 });
    expect(stored!.unseenPrefix).toEqual(preview.unseenPrefix);
    expect(sentSentence(stored!.record.tokens_before, stored!.unseenPrefix!)).toBe(sentSentence(preview.plan.tokensBefore, preview.unseenPrefix));
    expect(sentSentence(stored!.record.tokens_after, stored!.unseenPrefix!)).toBe(sentSentence(preview.plan.tokensAfterEstimate, preview.unseenPrefix));
    expect(sentSentence(stored!.record.tokens_after, stored!.unseenPrefix!)).toContain('18,094 not in it: system prompt and tool definitions, from the usage recorded at call 2');
  }, 60_000);

  it('a transcript without usage: the estimate entered for the run is stored with its preset, and a later one does not change it', async () => {
    const { db, counts, engine } = await openSample();
    const codex = await engine.importBlob(new Blob([readFileSync('public/samples/codex/schema-coverage.jsonl')]), { jobId: 'i2', fileName: 'x.jsonl', origin: 'file' }, () => undefined);
    const jobs = new CompactionJobs(db, counts);
    const request: CompactRequest = { jobId: 'j', conversationId: codex.conversation.id, strategy: 'budget', options: {}, counter: 'o200k', contextWindow: 38_000, summarizer: 'offline', unseenPrefix: 'claude-code', now: 1_800_000_000_000 };
    const row = await jobs.compact(request, new AbortController().signal, () => undefined);
    expect((await db.compactions.get(row.id))?.unseenPrefix).toMatchObject({ tokens: 17_400, source: 'estimate', preset: 'claude-code' });
    const later = await jobs.plan({ ...request, unseenPrefix: '500' });
    expect(later.unseenPrefix.tokens).toBe(500);
    const reopened = await db.compactions.get(row.id);
    expect(sentSentence(reopened!.record.tokens_before, reopened!.unseenPrefix!)).toMatch(/ \+ 17,400 not in it: system prompt and tool definitions \(estimate: claude-code preset\)$/);
  }, 60_000);
});
