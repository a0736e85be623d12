import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../../db/schema.ts';
import { loadEntries } from '../../db/conversations.ts';
import { Engine } from '../engine/engine.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('folding in the worker', () => {
  it('folds a stored branch into compact timeline arrays and a block index pointing at the journal', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const { conversation } = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
    const journal = await loadEntries(db, conversation.id);
    const view = await engine.fold({ conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000 });
    expect(view.timeline.iterations).toBe(view.totalIterations);
    expect(view.timeline.levels).toHaveLength(view.timeline.iterations);
    expect(view.tokensAfter).toBeLessThan(view.tokensBefore);
    const top = view.blocks.filter((b) => b.depth === 0);
    expect(top[0]?.journalFrom).toBe(journal.find((e) => e.kind !== 'event')?.index);
    for (const block of view.blocks) expect(block.journalFrom).toBeLessThanOrEqual(block.journalTo);
    expect(view.events.length).toBeGreaterThan(0);

    // The replay: as of iteration 30 there are 31 iterations; summaries are reused from the cache.
    const early = await engine.fold({ conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000, upToIteration: 30 });
    expect(early.timeline.iterations).toBe(31);
    const again = await engine.fold({ conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000 });
    expect(again.summariesMade).toBe(0);

    const hits = await engine.fold({ conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000, query: 'renderer.py' });
    expect(hits.hits.length).toBeGreaterThan(0);
  });
});
