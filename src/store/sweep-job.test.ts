import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sweepPoints } from '../core/sweep/points.ts';
import { DEFAULT_RETENTION_WEIGHTS } from '../core/sweep/score.ts';
import { importedSamples } from '../worker/engine/test-fixtures.ts';
import { inThreadSweepWorker } from '../worker/sweep/sweep-threads.ts';
import { runSweepJob, type SweepJobDeps, type SweepJobProgress, type SweepJobRequest } from './sweep-job.ts';

const openSample = importedSamples();

async function setup() {
  const { db, engine, outcome } = await openSample();
  const conversation = outcome.conversation;
  const counted: string[] = [];
  const deps: SweepJobDeps = {
    db, spawn: inThreadSweepWorker(db), size: 2,
    countTokens: async (id, counter) => {
      counted.push(`${id}:${counter}`);
      await engine.countTokens('count', id, counter, () => undefined);
    },
  };
  const request: SweepJobRequest = {
    name: 'pi over the sample', strategy: 'pi', plan: { vary: ['keepRecentTokens=4000..12000:2', 'reserveTokens=8000..16000:2'] },
    points: sweepPoints({ strategy: 'pi', vary: ['keepRecentTokens=4000..12000:2', 'reserveTokens=8000..16000:2'] }),
    sessions: [{ conversationId: conversation.id, importId: conversation.importId, title: conversation.title }],
    counter: 'chars4', contextWindow: 50_000, summarizer: { summarizer: 'offline' }, summarizerLabel: 'offline', weights: { ...DEFAULT_RETENTION_WEIGHTS },
  };
  return { db, deps, request, counted, conversation };
}

describe('a sweep job', () => {
  it('counts each session once, replays every point, reports progress to the end and saves every point with its figures', async () => {
    const { db, deps, request, counted, conversation } = await setup();
    const progress: SweepJobProgress[] = [];
    const { row, cancelled } = await runSweepJob(request, deps, new AbortController().signal, (p) => progress.push(p));
    expect(cancelled).toBe(false);
    expect(counted).toEqual([`${conversation.id}:chars4`]);
    expect(progress[0]).toEqual({ phase: 'counting', done: 0, total: 1 });
    expect(progress.at(-1)).toMatchObject({ phase: 'replaying', tasksDone: 4, tasks: 4, pointsDone: 4, points: 4 });
    expect(row).toBeDefined();
    expect(await db.sweeps.get(row!.id)).toEqual(row);
    expect(row).toMatchObject({ strategy: 'pi', planned: 4, cancelled: false, summarizer: 'offline', counter: 'chars4', contextWindow: 50_000 });
    expect(row!.points.map((p) => [p.keepRecentTokens, p.reserveTokens])).toEqual([[4000, 8000], [4000, 16000], [12000, 8000], [12000, 16000]]);
    expect(row!.figures.every((f) => f.length === 1 && f[0]!.error === undefined && f[0]!.tokensPerTask > 0)).toBe(true);
  });

  it('a cancel keeps and saves the points finished before it, marked as cancelled', async () => {
    const { db, deps, request } = await setup();
    const controller = new AbortController();
    const { row, cancelled } = await runSweepJob(request, { ...deps, size: 1 }, controller.signal, (p) => {
      if (p.phase === 'replaying' && p.pointsDone === 2) controller.abort();
    });
    expect(cancelled).toBe(true);
    expect(row).toMatchObject({ planned: 4, cancelled: true });
    expect(row!.points).toHaveLength(2);
    expect(row!.figures).toHaveLength(2);
    expect(await db.sweeps.count()).toBe(1);
  });

  it('a cancel before any point finished saves nothing', async () => {
    const { db, deps, request } = await setup();
    const controller = new AbortController();
    controller.abort();
    expect(await runSweepJob(request, deps, controller.signal, () => undefined)).toEqual({ row: undefined, cancelled: true });
    expect(await db.sweeps.count()).toBe(0);
  });

  it('refuses a sweep without points or sessions', async () => {
    const { deps, request } = await setup();
    const signal = new AbortController().signal;
    await expect(runSweepJob({ ...request, points: [] }, deps, signal, () => undefined)).rejects.toThrow('A sweep needs at least one point');
    await expect(runSweepJob({ ...request, sessions: [] }, deps, signal, () => undefined)).rejects.toThrow('Choose at least one session to sweep over.');
  });
});
