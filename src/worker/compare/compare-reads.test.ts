import 'fake-indexeddb/auto';
import * as Comlink from 'comlink';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionContext } from '../../core/replay/compaction-context.ts';
import { getComparison } from '../../db/comparisons.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { contextAtCall } from '../../core/replay/call-context.ts';
import type { ReplayCall } from '../../core/replay/types.ts';
import type { ComparisonRow } from '../../db/schema.ts';
import type { CompareRequest } from './compare-protocol.ts';
import { callAt, type CallSeries } from '../../core/replay/call-series.ts';
import type { ComparisonView } from './compare-view.ts';
import { Engine } from '../engine/engine.ts';

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
  const { id, view } = await engine.compareAndSave(request, { importId: outcome.conversation.importId, name: 'pi vs masking' }, () => undefined);
  const row = (await getComparison(db, id))!;
  return { engine, id, row, view, conversationId: outcome.conversation.id };
}

/** The series holds every stored call's figures, in call order. */
function expectSeriesOf(series: CallSeries, calls: readonly ReplayCall[]): void {
  expect(series.length).toBe(calls.length);
  expect(series.contextTokens).toBeInstanceOf(Float64Array);
  expect([...series.contextTokens]).toEqual(calls.map((call) => call.contextTokens));
  calls.forEach((call, k) => {
    expect(call.call).toBe(k);
    const { contextTokens, cachedTokens, outputTokens, compacted, overflow, note } = call;
    expect(callAt(series, k)).toEqual({ contextTokens, cachedTokens, outputTokens, compacted, overflow, ...(note !== undefined ? { note } : {}) });
  });
  expect(callAt(series, calls.length)).toBeUndefined();
}

/** The engine served over a MessageChannel as the worker serves it, with the buffers each reply moves. */
function overChannel(engine: Engine) {
  const channel = new MessageChannel();
  const moved: Transferable[][] = [];
  const workerSide: Comlink.Endpoint = {
    postMessage: (message: unknown, transfer: Transferable[] = []) => {
      moved.push(transfer);
      channel.port2.postMessage(message, transfer);
    },
    addEventListener: channel.port2.addEventListener.bind(channel.port2),
    removeEventListener: channel.port2.removeEventListener.bind(channel.port2),
    start: () => channel.port2.start(),
  };
  Comlink.expose(engine, workerSide);
  channel.port1.start();
  const remote = Comlink.wrap<Engine>(channel.port1);
  return { remote, moved, close: () => { channel.port1.close(); channel.port2.close(); } };
}

describe('saved comparisons read in the worker for the page', () => {
  it('the compare\'s reply is the view opening the saved comparison gives: the chart needs no second request', async () => {
    const { engine, id, view } = await saved();
    expect(view.id).toBe(id);
    expect(view).toEqual(await engine.openComparison(id));
  });

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
      expectSeriesOf(result.calls, stored.calls);
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

describe('the opened comparison crossing to the page', () => {
  it('moves the per-call series as typed arrays that equal the stored calls of a real sample', async () => {
    const { engine, id, row } = await saved();
    const { remote, moved, close } = overChannel(engine);
    try {
      const view = (await remote.openComparison(id)) as ComparisonView;
      for (const [i, result] of view.result.results.entries()) expectSeriesOf(result.calls, row.result.results[i]!.calls);
      // Four columns per configuration, each buffer moved rather than copied.
      expect(moved.at(-1)).toHaveLength(4 * row.result.results.length);
      expect(moved.at(-1)!.every((buffer) => buffer instanceof ArrayBuffer)).toBe(true);
    } finally {
      close();
    }
  });

  it('opens a comparison stored in the shape saved before the series (calls as objects)', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const scores = { decision: { total: 0, kept: 0 }, constraint: { total: 0, kept: 0 }, fact: { total: 0, kept: 0 }, identifier: { total: 0, kept: 0 }, task: { total: 0, kept: 0 } };
    const calls: ReplayCall[] = [
      { call: 0, entryIndex: 1, entryId: 'a1', contextTokens: 1200, cachedTokens: 0, outputTokens: 40, compacted: false, overflow: false, at: 1_700_000_000_000 },
      { call: 1, entryIndex: 3, entryId: 'a2', contextTokens: 2400.5, cachedTokens: 1200, outputTokens: 35, compacted: false, overflow: true, note: 'over the window: nothing left to compact' },
      { call: 2, entryIndex: 5, entryId: 'a3', contextTokens: 900, cachedTokens: 0, outputTokens: 50, compacted: true, overflow: false },
    ];
    const row = {
      id: 'old', conversationId: 'c', importId: 'imp', createdAt: 1_700_000_000_000, name: 'saved earlier',
      request: { conversationId: 'c', counter: 'chars4', contextWindow: 2000, configs: [{ strategy: 'pi', options: {} }], summarizer: 'offline' },
      result: {
        conversationId: 'c', counter: 'chars4', counterLabel: 'chars/4', contextWindow: 2000, entryIds: ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'], durationMs: 12,
        results: [{
          config: { strategy: 'pi', options: {} }, label: 'pi', counter: 'chars/4', contextWindow: 2000, calls,
          compactions: [{ call: 2, trigger: 'threshold', tokensBefore: 2600, tokensAfter: 900, appendFrom: 4, context: [{ origin: 'journal', entryId: 'u2' }] }],
          totals: { calls: 3, compactions: 1, peakTokens: 2400.5, overflowCalls: 1, contextTokens: 4500.5, tokensPerTask: 4500.5, summarizerTokens: { input: 0, output: 0 }, cost: null },
          probes: [], scores, compactionScores: scores, finalContext: [{ origin: 'journal', entryId: 'u3' }], notes: [],
        }],
      },
    } as unknown as ComparisonRow;
    await db.comparisons.put(row);
    const { remote, close } = overChannel(engine);
    try {
      const view = (await remote.openComparison('old')) as ComparisonView;
      expect(view.name).toBe('saved earlier');
      const [result] = view.result.results;
      expectSeriesOf(result!.calls, calls);
      expect(result!.compactions).toEqual([{ call: 2, trigger: 'threshold', tokensBefore: 2600, tokensAfter: 900 }]);
      expect(result!.totals).toEqual(row.result.results[0]!.totals);
      expect(await remote.comparisonCallContext('old', 0, 2)).toEqual([{ origin: 'journal', entryId: 'u2' }, { origin: 'journal', entryId: 'u3' }]);
    } finally {
      close();
    }
  });
});
