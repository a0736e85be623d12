import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyScores } from '../core/replay/scoring.ts';
import { DEFAULT_RETENTION_WEIGHTS } from '../core/sweep/score.ts';
import { FoldlabDatabase } from './schema.ts';
import type { SweepRow } from './sweep-row.ts';
import { deleteSweep, listSweeps, saveSweep, setSweepWeights } from './sweeps.ts';

let db: FoldlabDatabase | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

const figures = { tokensPerTask: 1000, uncompactedTokensPerTask: 2000, probes: emptyScores(), overflowCalls: 0, compactions: 2 };

function sweep(name: string): Omit<SweepRow, 'id' | 'createdAt'> {
  return {
    name, strategy: 'pi', plan: { vary: ['keepRecentTokens=4000..12000:2'] },
    sessions: [{ conversationId: 'c1', importId: 'i1', title: 'a session' }],
    counter: 'chars4', contextWindow: 50_000, summarizer: 'offline',
    points: [{ keepRecentTokens: 4000 }], figures: [[figures]], planned: 2, cancelled: true,
    weights: { ...DEFAULT_RETENTION_WEIGHTS }, durationMs: 12,
  };
}

describe('saved sweeps', () => {
  it('are saved with their figures, listed newest first, given new weights and deleted', async () => {
    db = new FoldlabDatabase(`sweeps-${Math.random()}`);
    const first = await saveSweep(db, sweep('first'), 1);
    const second = await saveSweep(db, sweep('second'), 2);
    expect((await listSweeps(db)).map((row) => row.name)).toEqual(['second', 'first']);
    expect(await db.sweeps.get(first.id)).toEqual(first);
    expect(first).toMatchObject({ points: [{ keepRecentTokens: 4000 }], figures: [[figures]], planned: 2, cancelled: true });

    await setSweepWeights(db, first.id, { ...DEFAULT_RETENTION_WEIGHTS, task: 0 });
    expect((await db.sweeps.get(first.id))!.weights.task).toBe(0);
    await deleteSweep(db, second.id);
    expect((await listSweeps(db)).map((row) => row.id)).toEqual([first.id]);
  });

  it('refuses weights that are all 0 or negative, a row whose figures miss a point, and weights for a deleted sweep', async () => {
    db = new FoldlabDatabase(`sweeps-${Math.random()}`);
    const zero = { task: 0, constraint: 0, error: 0, artifact: 0, identifier: 0, decision: 0 };
    await expect(saveSweep(db, { ...sweep('x'), weights: zero })).rejects.toThrow('At least one probe category needs a weight above 0.');
    await expect(saveSweep(db, { ...sweep('x'), figures: [] })).rejects.toThrow('needs figures for each of its 1 points; got 0');
    const row = await saveSweep(db, sweep('x'));
    await expect(setSweepWeights(db, row.id, { ...zero, error: -1 })).rejects.toThrow('The weight of error must be a number >= 0; got -1.');
    await expect(setSweepWeights(db, 'gone', DEFAULT_RETENTION_WEIGHTS)).rejects.toThrow('No saved sweep gone');
    expect(await db.sweeps.count()).toBe(1);
  });
});
