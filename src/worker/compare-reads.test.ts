import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionContext } from '../core/replay/compaction-context.ts';
import { getComparison } from '../db/comparisons.ts';
import { FoldlabDatabase } from '../db/schema.ts';
import { contextAtCall } from '../ui/compare/model.ts';
import type { CompareRequest } from './compare-protocol.ts';
import { Engine } from './engine.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

/** The real sample compared under pi and observation-masking (which compacts at most calls), saved by the worker. */
async function saved() {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const outcome = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
  const request: CompareRequest = {
    jobId: 'cmp', conversationId: outcome.conversation.id, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline',
    configs: [{ strategy: 'pi', options: {} }, { strategy: 'observation-masking', options: {} }],
  };
  const { id } = await engine.compareAndSave(request, { importId: outcome.conversation.importId, name: 'pi vs masking' }, () => undefined);
  const row = (await getComparison(db, id))!;
  return { engine, id, row, conversationId: outcome.conversation.id };
}

describe('saved comparisons read in the worker for the page', () => {
  it('lists them without their results, and opens one with its compactions as markers only', async () => {
    const { engine, id, row, conversationId } = await saved();
    const list = await engine.listComparisons(conversationId);
    expect(list).toEqual([{ id, conversationId, importId: row.importId, createdAt: row.createdAt, name: 'pi vs masking', request: row.request }]);

    const view = (await engine.openComparison(id))!;
    expect(view.name).toBe('pi vs masking');
    expect(view.result).not.toHaveProperty('entryIds');
    for (const [i, result] of view.result.results.entries()) {
      const stored = row.result.results[i]!;
      expect(result.compactions.length).toBe(stored.compactions.length);
      for (const [c, marker] of result.compactions.entries()) {
        const full = stored.compactions[c]!;
        expect(marker).toEqual({ call: full.call, trigger: full.trigger, tokensBefore: full.tokensBefore, tokensAfter: full.tokensAfter });
      }
      // What the table, the chart and the final contexts show is as stored.
      expect(result.calls).toEqual(stored.calls);
      expect(result.totals).toEqual(stored.totals);
      expect(result.probes).toEqual(stored.probes);
      expect(result.finalContext).toEqual(stored.finalContext);
    }
    expect(row.result.results[1]!.compactions.length).toBeGreaterThan(10);
    // The slimmed view is a fraction of the stored result.
    expect(JSON.stringify(view).length).toBeLessThan(JSON.stringify(row).length / 2);
    expect(await engine.openComparison('nope')).toBeUndefined();
  });

  it('gives one compaction in full with its context, and the context of any call, as the stored result says', async () => {
    const { engine, id, row } = await saved();
    for (const [config, result] of row.result.results.entries()) {
      for (const index of [0, Math.floor(result.compactions.length / 2), result.compactions.length - 1]) {
        const detail = (await engine.comparisonCompaction(id, config, index))!;
        const { context: _context, contextDelta: _delta, ...rest } = result.compactions[index]!;
        expect(detail).toMatchObject(rest);
        expect(detail.context).toEqual(compactionContext(result.compactions, index, row.result.entryIds));
      }
      for (let call = 0; call < result.calls.length; call += 7) {
        expect(await engine.comparisonCallContext(id, config, call)).toEqual(contextAtCall(result, row.result.entryIds, call));
      }
    }
    expect(await engine.comparisonCompaction(id, 0, 10_000)).toBeUndefined();
    expect(await engine.comparisonCallContext(id, 5, 0)).toEqual([]);
  });
});
