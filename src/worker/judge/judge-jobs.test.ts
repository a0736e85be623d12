import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SummarizerError, type Summarizer, type SummaryRequest } from '../../core/compaction/summarizer.ts';
import { failingSummarizer } from '../../core/compaction/testing.ts';
import { ANSWER_PROMPT } from '../../core/replay/judge-questions.ts';
import { saveComparison } from '../../db/comparisons.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { CompareJobs } from '../compare/compare-jobs.ts';
import type { CompareRequest } from '../compare/compare-protocol.ts';
import { Engine } from '../engine/engine.ts';
import { JudgeJobs, modelKey } from './judge-jobs.ts';
import type { JudgeJobProgress, JudgeRequest } from './judge-protocol.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const REMOTE = { presetId: 'openai', api: 'openai' as const, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-test' };

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

function scripted(): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'scripted', label: 'Scripted', requests,
    summarize(request) {
      requests.push(request);
      const text = request.promptId === ANSWER_PROMPT ? `The context mentions ${request.vars.category}.` : '{"score": 3, "reason": "half of the facts"}';
      return Promise.resolve({ text, model: 'gpt-4o-mini-2024-07-18', usage: { input: 1000, output: 50 } });
    },
  };
}

async function setup() {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const outcome = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
  const counts = async (id: string, counter: CompareRequest['counter']) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
  const compare: CompareRequest = {
    jobId: 'cmp', conversationId: outcome.conversation.id, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline',
    configs: [{ strategy: 'pi', options: {} }, { strategy: 'sliding-window', options: {} }],
  };
  const result = await new CompareJobs(db, counts).compare(compare, new AbortController().signal, () => undefined);
  const row = await saveComparison(db, { conversationId: outcome.conversation.id, importId: outcome.conversation.importId, name: 'two', request: compare, result });
  const request: JudgeRequest = { jobId: 'judge', comparisonId: row.id, summarizer: 'remote', remote: REMOTE };
  return { engine, row, request };
}

describe('judging a saved comparison in the worker', () => {
  it('estimates first, judges, caches, and a second run sends nothing', async () => {
    const { request } = await setup();
    const model = scripted();
    const jobs = new JudgeJobs(db, { remote: () => model });
    const quote = await jobs.estimate(request);
    expect(quote).toMatchObject({ cached: 0, counter: 'chars/4', priceModel: 'gpt-4o-mini', local: false, modelLabel: 'openai · gpt-4o-mini', skipped: [] });
    expect(quote.requests).toBe(2 * quote.questions);
    expect(quote.questions % 2).toBe(0);
    expect(quote.cost).toBeGreaterThan(0);
    expect(model.requests).toHaveLength(0);

    const progress: JudgeJobProgress[] = [];
    const result = await jobs.judge(request, new AbortController().signal, (p) => progress.push(p));
    expect(model.requests).toHaveLength(quote.requests);
    expect(result.requests).toBe(quote.requests);
    expect(result.items.every((item) => item.score === 3 && item.reason === 'half of the facts')).toBe(true);
    expect(result.grades).toHaveLength(2);
    expect(result.grades.every((g) => g.mean === 3)).toBe(true);
    expect(result.models).toEqual(['gpt-4o-mini-2024-07-18']);
    expect(result.cost).toBeCloseTo((quote.requests * 1000 * 0.15 + quote.requests * 50 * 0.6) / 1_000_000, 10);
    expect(progress.at(-1)).toMatchObject({ jobId: 'judge', done: quote.questions, total: quote.questions });
    expect(await db.judgements.count()).toBe(quote.requests);
    // Nothing stored holds the key.
    expect(JSON.stringify(await db.judgements.toArray())).not.toContain('sk-test');

    expect(await jobs.estimate(request)).toMatchObject({ requests: 0, cached: quote.questions, cost: 0 });
    const again = await jobs.judge(request, new AbortController().signal, () => undefined);
    expect(model.requests).toHaveLength(quote.requests);
    expect(again.requests).toBe(0);
    expect(again.items.map((i) => i.answer)).toEqual(result.items.map((i) => i.answer));
  });

  it('a failing model (wrong key) fails the run with its message and stores nothing', async () => {
    const { request } = await setup();
    const jobs = new JudgeJobs(db, { remote: () => failingSummarizer(new SummarizerError('OpenAI rejected the API key (401): Incorrect API key provided.')) });
    await expect(jobs.judge(request, new AbortController().signal, () => undefined)).rejects.toThrow(/401/);
    expect(await db.judgements.count()).toBe(0);
  });

  it('refuses the offline summarizer and says what to do; the engine cancels by job id', async () => {
    const { request, engine } = await setup();
    await expect(engine.estimateJudge({ ...request, summarizer: 'offline' })).rejects.toThrow(/offline summarizer cannot judge.*Settings > Models/);
    await expect(engine.estimateJudge({ ...request, comparisonId: 'gone' })).rejects.toThrow(/No saved comparison/);
    const hanging: Summarizer = { id: 'h', label: 'h', summarize: (r) => new Promise((_, reject) => r.signal.addEventListener('abort', () => reject(new Error('aborted')))) };
    const jobs = new JudgeJobs(db, { remote: () => hanging });
    const controller = new AbortController();
    const pending = jobs.judge(request, controller.signal, () => undefined);
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'CancelledError' });
    expect(await db.judgements.count()).toBe(0);
  });

  it('keys the cache by provider, base URL and model, never the API key', () => {
    expect(modelKey({ summarizer: 'remote', remote: REMOTE })).toBe('remote|openai|https://api.openai.com/v1|gpt-4o-mini');
    expect(modelKey({ summarizer: 'remote', remote: { ...REMOTE, apiKey: 'other' } })).toBe(modelKey({ summarizer: 'remote', remote: REMOTE }));
    expect(modelKey({ summarizer: 'webllm', localModelId: 'Qwen2.5-1.5B' })).toBe('webllm|Qwen2.5-1.5B');
  });
});
