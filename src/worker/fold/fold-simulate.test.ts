import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrompts } from '../../cli/load.ts';
import type { Summarizer, SummaryRequest } from '../../core/compaction/summarizer.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';
import type { OnText } from '../compaction/compaction-jobs.ts';
import { FoldJobs } from './fold-jobs.ts';
import type { FoldRequest, FoldSummaryProgress } from './fold-protocol.ts';
import { FoldSimulations } from './fold-simulate.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

function streamingModel(onText: OnText, requests: SummaryRequest[]): Summarizer {
  return {
    id: 'openai',
    label: 'Fake',
    summarize(request) {
      requests.push(request);
      onText('{"summary": "Model', 42);
      return Promise.resolve({ text: JSON.stringify({ title: 'Model chapter', summary: 'Model summary of the range.', key_actions: ['edited renderer.py'], outcomes: ['renderer works'], keywords: ['renderer'], entities: ['renderer.py'] }), model: 'fake' });
    },
  };
}

describe('simulate in the worker (F13)', () => {
  it('measures the range against the fold the page shows, with the chosen summarizer, and changes nothing', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const { conversation } = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
    const counts = async (id: string, counter: FoldRequest['counter']) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
    const requests: SummaryRequest[] = [];
    const simulations = new FoldSimulations(db, counts, { remote: (_request, onText) => streamingModel(onText, requests) }, loadPrompts());
    const folds = new FoldJobs(db, counts);
    const request: FoldRequest = { conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 60_000, upToIteration: 40 };
    const view = await folds.fold(request);

    const offline = await simulations.simulate({ ...request, range: { from: 10, to: 30 } });
    expect(offline).toMatchObject({ from: 10, to: 30, level: 2, summarizer: 'offline', source: 'offline' });
    expect(offline.context.before).toBe(view.tokensAfter);
    expect(requests).toHaveLength(0);

    const progress: FoldSummaryProgress[] = [];
    const modelled = await simulations.simulate({ ...request, range: { from: 10, to: 30 }, level: 3, summarizer: 'remote' }, new AbortController().signal, (p) => progress.push(p));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.promptId).toBe('fold-chapter-index');
    expect(modelled).toMatchObject({ source: 'model', summarizer: 'openai', level: 3 });
    expect(modelled.text).toContain('Model summary of the range.');
    expect(progress).toEqual([{ done: 0, total: 1 }, { done: 0, total: 1, tokensPerSecond: 42 }, { done: 1, total: 1 }]);
    // The fold the page shows is as it was (its summaries now come from its cache).
    expect({ ...(await folds.fold(request)), summariesMade: view.summariesMade }).toEqual(view);
    await expect(simulations.simulate({ ...request, range: { from: 30, to: 41 } })).rejects.toThrow(/pick a range within 0-40/);
  });
});
