import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrompts } from '../../cli/load.ts';
import type { Summarizer, SummaryRequest } from '../../core/compaction/summarizer.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';
import { FoldJobs, type FoldRequest } from './fold-jobs.ts';
import { FoldSummaries } from './fold-summaries.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

/** Good JSON for every prompt, except the first block asked about, which always gets prose. */
function fakeModel(): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'openai',
    label: 'Fake',
    requests,
    summarize(request) {
      requests.push(request);
      const span = request.vars.span ?? '';
      const text = requests[0]?.vars.span === span && request.promptId !== 'fold-self-check'
        ? 'I am sorry, I cannot produce JSON for this.'
        : request.promptId === 'fold-phase-synthesis'
          ? JSON.stringify({ line: `Phase of ${span}.` })
          : request.promptId === 'fold-self-check'
            ? JSON.stringify({ complete: true, missing: [] })
            : JSON.stringify({ title: `Model title ${span}`, summary: `Model summary of ${span}.`, key_actions: ['edited renderer.py'], outcomes: ['renderer works'], keywords: ['renderer'], entities: ['renderer.py'] });
      return Promise.resolve({ text, model: 'fake-model' });
    },
  };
}

async function setup(model: Summarizer) {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const { conversation } = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
  const counts = async (id: string, counter: FoldRequest['counter']) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
  const jobs = new FoldJobs(db, counts, new FoldSummaries({ remote: () => model }, loadPrompts()));
  const request: FoldRequest = {
    conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000,
    summarizer: 'remote', remote: { presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-canary' },
  };
  return { jobs, request };
}

describe('model summaries in the fold worker', () => {
  it('the final fold gets model indexes; a malformed block keeps the offline one with a note; re-folding asks nothing', async () => {
    const model = fakeModel();
    const { jobs, request } = await setup(model);
    const offline = await jobs.fold({ ...request, summarizer: 'offline' });
    expect(offline.notes).toEqual([]);
    expect(offline.modelSummaries).toEqual({ made: 0, reused: 0 });
    expect(model.requests).toHaveLength(0);

    const progress: Array<[number, number]> = [];
    const view = await jobs.fold(request, new AbortController().signal, (p) => progress.push([p.done, p.total]));
    const folded = view.blocks.filter((b) => b.level >= 2);
    expect(folded.length).toBeGreaterThan(2);
    expect(view.modelSummaries).toEqual({ made: folded.length, reused: 0 });
    expect(progress.at(-1)).toEqual([folded.length, folded.length]);
    expect(view.notes).toHaveLength(1);
    expect(view.notes[0]).toMatch(/^fold_iter\d+_to_\d+: reply was not JSON \(no object in it\) \(also after a retry\); used the offline summary\.$/);
    const bad = view.notes[0]!.split(':')[0];
    for (const block of folded) {
      const before = offline.blocks.find((b) => b.id === block.id && b.level === block.level)!;
      if (block.id === bad) expect(block.title).toBe(before.title);
      else if (block.level === 3) expect(block.title).toMatch(/^Model title iteration/);
      else if (block.level === 2) expect(block.content).toMatch(/^Model summary of/);
    }
    expect(view.timeline.blocks.some((b) => b.title.startsWith('Model title') || b.level === 2)).toBe(true);
    // Every prompt went out with its block's transcript or parts, never a key.
    for (const r of model.requests) expect(r.prompt).not.toContain('sk-canary');

    const calls = model.requests.length;
    const again = await jobs.fold({ ...request, query: 'renderer' });
    expect(model.requests.length).toBe(calls);
    expect(again.modelSummaries).toEqual({ made: 0, reused: folded.length });
    expect(again.notes).toEqual(view.notes);
    expect(again.hits.length).toBeGreaterThan(0);

    // The replay uses cached model summaries only.
    const early = await jobs.fold({ ...request, upToIteration: 40, cachedOnly: true });
    expect(model.requests.length).toBe(calls);
    expect(early.modelSummaries.made).toBe(0);
  });

  it('a cancel stops the model summaries', async () => {
    const hanging: Summarizer = { id: 'hang', label: 'Hang', summarize: () => new Promise(() => undefined) };
    const { jobs, request } = await setup(hanging);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(jobs.fold(request, controller.signal)).rejects.toThrow('Model summaries cancelled');
  });
});
