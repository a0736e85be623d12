import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrompts } from '../../cli/load.ts';
import type { Summarizer, SummaryRequest } from '../../core/compaction/summarizer.ts';
import { deleteConversation } from '../../db/conversations.ts';
import { listBookmarks, toggleBookmark } from '../../db/folds.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';
import { FoldJobs } from './fold-jobs.ts';
import type { FoldRequest } from './fold-protocol.ts';
import { FoldSummaries } from './fold-summaries.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

/** A model that answers every block with good JSON and counts what it was asked; `failAfter` makes later calls fail. */
function countingModel(failAfter = Infinity): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'openai',
    label: 'Counting',
    requests,
    summarize(request) {
      requests.push(request);
      if (requests.length > failAfter) return Promise.reject(new Error('HTTP 500 from the provider'));
      const span = request.vars.span ?? '';
      const text = request.promptId === 'fold-phase-synthesis'
        ? JSON.stringify({ line: `Phase of ${span}.` })
        : JSON.stringify({ title: `Model title ${span}`, summary: `Model summary of ${span}.`, key_actions: ['edited renderer.py'], outcomes: ['works'], keywords: ['renderer'], entities: ['renderer.py'] });
      return Promise.resolve({ text, model: 'fake-model' });
    },
  };
}

async function library() {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const { conversation } = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
  let counted = 0;
  const counts = async (id: string, counter: FoldRequest['counter']) => {
    counted++;
    return (await engine.countTokens('c', id, counter, () => undefined)).totals;
  };
  /** A fresh worker, as after a reload: nothing in memory, the same database. */
  const worker = (model: Summarizer) => new FoldJobs(db, counts, new FoldSummaries({ remote: () => model }, loadPrompts()));
  const request: FoldRequest = {
    conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000,
    summarizer: 'remote', remote: { presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-canary-fold' },
  };
  return { conversation, worker, request, counted: () => counted };
}

describe('folds in the library', () => {
  it('a reload shows the stored fold view without folding again', async () => {
    const { worker, request, counted } = await library();
    const offline = { ...request, summarizer: 'offline' as const };
    const first = await worker(countingModel()).fold(offline);
    expect(first.storedAt).toBeUndefined();
    const [row] = await db.folds.toArray();
    expect(row?.provenance).toMatchObject({ model: 'offline', method: 'fold v1', range: { from: 0, to: first.totalIterations - 1 } });
    expect(row?.provenance.sourceHash).toMatch(/^[0-9a-f]{16}$/);
    expect(row?.view.events).toEqual(first.events);

    const before = counted();
    const reloaded = await worker(countingModel()).fold(offline);
    expect(counted()).toBe(before);
    expect(reloaded.storedAt).toBe(row?.createdAt);
    expect(reloaded.blocks).toEqual(first.blocks);
    expect(reloaded.timeline).toEqual(first.timeline);
    expect(reloaded.summariesMade).toBe(0);
    // Other options are another view: folded, not read back.
    const other = await worker(countingModel()).fold({ ...offline, options: { fadeAfter: 3 } });
    expect(other.storedAt).toBeUndefined();
  });

  it('never pays for a model fold summary twice: a reload, a query or other options ask the model nothing already answered', async () => {
    const { worker, request } = await library();
    const model = countingModel();
    const view = await worker(model).fold(request);
    const paid = model.requests.length;
    expect(paid).toBeGreaterThan(2);
    const rows = await db.foldSummaries.toArray();
    expect(rows).toHaveLength(view.modelSummaries.made);
    for (const row of rows) {
      expect(row.provenance.model).toBe('openai:https://api.openai.com/v1|gpt-4o-mini');
      expect(row.provenance.method).toMatch(/^fold-summary L[234]$/);
      expect(row.provenance.range.from).toBeGreaterThanOrEqual(0);
      expect(row.key.startsWith(row.provenance.sourceHash)).toBe(true);
      expect(JSON.stringify(row)).not.toContain('sk-canary');
    }

    const after = countingModel();
    const reloaded = await worker(after).fold(request);
    expect(after.requests).toHaveLength(0);
    expect(reloaded.storedAt).toBeDefined();
    expect(reloaded.blocks).toEqual(view.blocks);
    const queried = await worker(after).fold({ ...request, query: 'renderer' });
    expect(after.requests).toHaveLength(0);
    expect(queried.modelSummaries).toEqual({ made: 0, reused: view.modelSummaries.made });
  });

  it('summaries paid for before a failure are kept; the incomplete view is not, so the rest is asked for next time', async () => {
    const { worker, request } = await library();
    const failing = countingModel(2);
    const view = await worker(failing).fold(request);
    expect(view.notes.join('\n')).toMatch(/the model failed/);
    expect(await db.foldSummaries.count()).toBe(2);
    expect(await db.folds.count()).toBe(0);
    const good = countingModel();
    const next = await worker(good).fold(request);
    expect(next.modelSummaries.reused).toBe(2);
    expect(good.requests.length).toBe(next.modelSummaries.made);
    expect(await db.folds.count()).toBe(1);
  });

  it('bookmarks are kept per conversation; deleting the conversation removes its folds, summaries and bookmarks', async () => {
    const { worker, request, conversation } = await library();
    await worker(countingModel()).fold(request);
    expect(await toggleBookmark(db, conversation.id, 12)).toBe(true);
    expect(await toggleBookmark(db, conversation.id, 3)).toBe(true);
    expect(await toggleBookmark(db, 'other', 5)).toBe(true);
    expect(await listBookmarks(db, conversation.id)).toEqual([3, 12]);
    expect(await toggleBookmark(db, conversation.id, 12)).toBe(false);
    expect(await listBookmarks(db, conversation.id)).toEqual([3]);
    await deleteConversation(db, conversation.id);
    expect(await db.folds.count()).toBe(0);
    expect(await db.foldSummaries.count()).toBe(0);
    expect(await listBookmarks(db, conversation.id)).toEqual([]);
    expect(await listBookmarks(db, 'other')).toEqual([5]);
  });
});
