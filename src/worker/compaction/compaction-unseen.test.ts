/**
 * The Compact page's plan reads the context as sent: the worker adds the same unseen prefix as the
 * CLI (sessionUnseenPrefix), so pi's trigger compares transcript + prefix, and where no call
 * recorded usage the estimate the user entered applies (never over a recorded figure).
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCompact } from '../../cli/compact.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import { CompareJobs } from '../compare/compare-jobs.ts';
import type { CompactRequest } from '../engine/protocol.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();
const CLAUDE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

describe('the plan in the worker counts the unseen prefix', () => {
  it('Claude Code sample: the recorded prefix, the same as compact --json, in pi\'s trigger', async () => {
    const { db, counts, outcome } = await openSample();
    const jobs = new CompactionJobs(db, counts);
    const request: CompactRequest = { jobId: 'j', conversationId: outcome.conversation.id, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 80_000, summarizer: 'offline', now: 1_800_000_000_000 };
    const preview = await jobs.plan(request);
    const cli = await runCompact({ file: CLAUDE, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 80_000 });
    expect(preview.unseenPrefix.source).toBe('recorded');
    expect(preview.unseenPrefix.tokens).toBe(cli.unseenPrefixTokens);
    expect(preview.unseenPrefix.tokens).toBe(18_094);
    expect(preview.plan.tokensBefore).toBe(cli.tokensBefore);
    expect(preview.plan.trigger.numbers.contextTokens).toBe(preview.plan.tokensBefore + 18_094);
    expect(preview.plan.trigger.fire).toBe(true);
    // The page's estimate applies only where nothing was recorded.
    const entered = await jobs.plan({ ...request, unseenPrefix: 'pi' });
    expect(entered.unseenPrefix.tokens).toBe(18_094);
  });

  it('a transcript without usage: 0 with its note, or the estimate entered (a preset or tokens); a bad entry is refused', async () => {
    const { db, counts, engine } = await openSample();
    const codex = await engine.importBlob(new Blob([readFileSync('public/samples/codex/schema-coverage.jsonl')]), { jobId: 'i2', fileName: 'x.jsonl', origin: 'file' }, () => undefined);
    const jobs = new CompactionJobs(db, counts);
    const request: CompactRequest = { jobId: 'j', conversationId: codex.conversation.id, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 80_000, summarizer: 'offline', now: 1_800_000_000_000 };
    const none = await jobs.plan(request);
    expect(none.unseenPrefix).toMatchObject({ tokens: 0, source: 'none' });
    const preset = await jobs.plan({ ...request, unseenPrefix: 'claude-code' });
    expect(preset.unseenPrefix).toMatchObject({ tokens: 17_400, source: 'estimate', preset: 'claude-code' });
    expect(preset.plan.trigger.numbers.contextTokens).toBe(none.plan.trigger.numbers.contextTokens! + 17_400);
    const typed = await jobs.plan({ ...request, unseenPrefix: '2_500' });
    expect(typed.unseenPrefix).toMatchObject({ tokens: 2_500, source: 'estimate' });
    await expect(jobs.plan({ ...request, unseenPrefix: 'lots' })).rejects.toThrow(/whole number of tokens >= 0 or one of the presets/);
  });

  it('Compare takes the same estimate where nothing was recorded, and keeps the recorded prefix where usage was', async () => {
    const { db, counts, engine, outcome } = await openSample();
    const codex = await engine.importBlob(new Blob([readFileSync('public/samples/codex/schema-coverage.jsonl')]), { jobId: 'i2', fileName: 'x.jsonl', origin: 'file' }, () => undefined);
    const jobs = new CompareJobs(db, counts);
    const base = { jobId: 'c', counter: 'o200k' as const, contextWindow: 200_000, summarizer: 'offline', configs: [{ strategy: 'pi' as const, options: {} }], unseenPrefix: 'pi' };
    const without = await jobs.compare({ ...base, conversationId: codex.conversation.id }, new AbortController().signal, () => undefined);
    expect(without.unseenPrefix).toMatchObject({ tokens: 1_640, source: 'estimate', preset: 'pi' });
    const withUsage = await jobs.compare({ ...base, conversationId: outcome.conversation.id }, new AbortController().signal, () => undefined);
    expect(withUsage.unseenPrefix).toMatchObject({ tokens: 18_094, source: 'recorded' });
  }, 60_000);
});
