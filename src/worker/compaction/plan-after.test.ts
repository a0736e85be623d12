/**
 * The Compact page's plan gives the after figure the run will give when the offline summarizer
 * writes the summaries (the same summaries counted), and says it is an estimate at the summaries'
 * budget when a model writes them.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { runCompact } from '../../cli/compact.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import type { CompactRequest } from '../engine/protocol.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();
const CLAUDE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

describe('the plan’s after figure in the worker', () => {
  it('Claude Code sample, pi at 80k: the offline plan is the run’s figure, the CLI’s too; a model’s plan is the budget estimate', async () => {
    const { db, counts, outcome } = await openSample();
    const jobs = new CompactionJobs(db, counts);
    const request: CompactRequest = { jobId: 'j', conversationId: outcome.conversation.id, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 80_000, summarizer: 'offline', continueFrom: 'none', now: 1_800_000_000_000 };
    const offline = await jobs.plan(request);
    expect(offline.plan.afterBasis).toBe('offline');
    expect(offline.plan.summaries.length).toBeGreaterThan(0);
    const row = await jobs.compact(request, new AbortController().signal, () => undefined);
    expect(offline.plan.tokensAfterEstimate).toBe(row.record.tokens_after);
    const cli = await runCompact({ file: CLAUDE, strategy: 'pi', options: {}, counter: 'o200k', contextWindow: 80_000 });
    expect(cli.plannedTokensAfter).toBe(offline.plan.tokensAfterEstimate);

    const model = await jobs.plan({ ...request, summarizer: 'remote' });
    expect(model.plan.afterBasis).toBe('budget');
    // pi counts each summary at 0.8 x reserveTokens: far above the offline summary, and said to be an estimate.
    expect(model.plan.tokensAfterEstimate).toBeGreaterThan(offline.plan.tokensAfterEstimate + 5_000);
  }, 60_000);

  it('a plan without summaries counts the assembled context, whoever would summarize', async () => {
    const { db, counts, outcome } = await openSample();
    const jobs = new CompactionJobs(db, counts);
    const request: CompactRequest = { jobId: 'j', conversationId: outcome.conversation.id, strategy: 'observation-masking', options: {}, counter: 'o200k', contextWindow: 40_000, summarizer: 'webllm', now: 1_800_000_000_000 };
    const preview = await jobs.plan(request);
    expect(preview.plan.afterBasis).toBe('counted');
    expect(preview.plan.tokensAfterEstimate).toBeLessThan(preview.plan.tokensBefore);
    const row = await jobs.compact({ ...request, summarizer: 'offline' }, new AbortController().signal, () => undefined);
    expect(preview.plan.tokensAfterEstimate).toBe(row.record.tokens_after);
  }, 60_000);
});
