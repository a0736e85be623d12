import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { CompareJobs } from '../compare/compare-jobs.ts';
import { importedSamples } from '../engine/test-fixtures.ts';
import { sessionFigures } from '../../core/sweep/score.ts';
import { sweepPoints } from '../../core/sweep/points.ts';
import { runSweepPool, type SweepJob, type SweepPoolProgress } from './sweep-pool.ts';
import type { SweepWorkerFactory } from './sweep-protocol.ts';
import { sweepPoolSize } from './sweep-spawn.ts';
import { inThreadSweepWorker } from './sweep-threads.ts';

const openSample = importedSamples();

const POINTS = sweepPoints({ strategy: 'pi', vary: ['keepRecentTokens=4000,12000', 'reserveTokens=8000,16000'] }).slice(0, 3);

async function setup() {
  const sample = await openSample();
  const id = sample.outcome.conversation.id;
  const job: SweepJob = { shared: { strategy: 'pi', counter: 'chars4', contextWindow: 50_000, summarizer: 'offline' }, points: POINTS, sessions: [id] };
  return { ...sample, id, job };
}

/** A summarizer that waits for `gate` before summarizing offline. */
function gated(gate: Promise<void>): Summarizer {
  const offline = createOfflineSummarizer();
  return { ...offline, summarize: async (request) => (await gate, offline.summarize(request)) };
}

describe('the sweep pool', () => {
  it('replays every point on every session, each figure what a one-configuration replay of it gives, with progress to the end', async () => {
    const { db, counts, id, job } = await setup();
    const progress: SweepPoolProgress[] = [];
    const outcome = await runSweepPool({ ...job, sessions: [id, id] }, { spawn: inThreadSweepWorker(db), size: 2 }, new AbortController().signal, (p) => progress.push(p));
    expect(outcome.cancelled).toBe(false);
    expect(outcome.figures).toHaveLength(3);
    const configs = POINTS.map((options) => ({ strategy: 'pi', options }));
    const compare = await new CompareJobs(db, counts).compare({ jobId: 'c', conversationId: id, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline', configs }, new AbortController().signal, () => undefined);
    outcome.figures.forEach((sessions, i) => {
      expect(sessions).toHaveLength(2);
      const expected = sessionFigures({ ...compare, calls: 105, uncompacted: compare.uncompacted!, recorded: null, scope: compare.scope!, unseenPrefix: compare.unseenPrefix! }, i);
      expect(expected.compactions).toBeGreaterThan(0);
      for (const figures of sessions!) expect(figures).toEqual(expected);
    });
    // The settings differ, and so do their figures.
    expect(new Set(outcome.figures.map((m) => m![0]!.tokensPerTask)).size).toBe(3);
    expect(progress[0]).toEqual({ tasksDone: 0, tasks: 6, pointsDone: 0, points: 3 });
    expect(progress.at(-1)).toMatchObject({ tasksDone: 6, tasks: 6, pointsDone: 3, points: 3, etaMs: 0 });
    expect(progress.map((p) => p.tasksDone)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('gives an ETA from the pace so far', async () => {
    const { db, job } = await setup();
    let clock = 0;
    const progress: SweepPoolProgress[] = [];
    await runSweepPool(job, { spawn: inThreadSweepWorker(db), size: 1, now: () => (clock += 1000) }, new AbortController().signal, (p) => progress.push(p));
    // Started at 1,000; the first point ends at 2,000 (1 s for 1 task, 2 left), the second at 3,000 (2 s for 2, 1 left).
    expect(progress.slice(1).map((p) => p.etaMs)).toEqual([2000, 1000, 0]);
  });

  it('a cancel answers at once and keeps the points whose sessions had all answered', async () => {
    const { db, job } = await setup();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const controller = new AbortController();
    const summarizers = { offline: (task: { options: Record<string, unknown> }) => (task.options.keepRecentTokens === 12000 ? gated(gate) : createOfflineSummarizer()), remote: () => createOfflineSummarizer() };
    const progress: SweepPoolProgress[] = [];
    const outcome = await runSweepPool(job, { spawn: inThreadSweepWorker(db, summarizers), size: 1 }, controller.signal, (p) => {
      progress.push(p);
      if (p.pointsDone === 1) controller.abort();
    });
    open();
    expect(outcome.cancelled).toBe(true);
    expect(outcome.figures[0]).toHaveLength(1);
    expect(outcome.figures[0]![0]!.error).toBeUndefined();
    expect(outcome.figures.slice(1)).toEqual([undefined, undefined]);
    expect(progress.at(-1)).toMatchObject({ pointsDone: 1, tasksDone: 1 });
  });

  it('a worker that crashes fails its one task with the reason, and a fresh worker replays the rest', async () => {
    const { db, job } = await setup();
    const inThread = inThreadSweepWorker(db);
    let spawned = 0;
    const crashFirst: SweepWorkerFactory = (events) => {
      spawned++;
      if (spawned > 1) return inThread(events);
      return { post: () => setTimeout(() => events.crash('out of memory')), terminate: () => undefined };
    };
    const outcome = await runSweepPool(job, { spawn: crashFirst, size: 1 }, new AbortController().signal, () => undefined);
    expect(outcome.figures[0]![0]).toMatchObject({ tokensPerTask: 0, error: 'The sweep worker replaying this session stopped unexpectedly: out of memory.' });
    expect(outcome.figures[1]![0]!.error).toBeUndefined();
    expect(outcome.figures[2]![0]!.tokensPerTask).toBeGreaterThan(0);
    expect(spawned).toBe(2);
  });

  it('a session that cannot be replayed (deleted) or an option the strategy refuses is that session\'s error line, the others run', async () => {
    const { db, job, id } = await setup();
    const outcome = await runSweepPool(
      { ...job, points: [POINTS[0]!, { ...POINTS[0]!, keepRecentTokens: -5 }], sessions: [id, 'gone'] },
      { spawn: inThreadSweepWorker(db), size: 2 }, new AbortController().signal, () => undefined,
    );
    expect(outcome.figures[0]![0]!.error).toBeUndefined();
    expect(outcome.figures[0]![1]!.error).toBe('Error: No conversation gone: it may have been deleted since the sweep started.');
    expect(outcome.figures[1]![0]!.error).toMatch(/keepRecentTokens/);
  });

  it('gets one worker per core, at least one and at most the cap', () => {
    expect(sweepPoolSize(undefined)).toBe(1);
    expect(sweepPoolSize(0)).toBe(1);
    expect(sweepPoolSize(2)).toBe(2);
    expect(sweepPoolSize(64)).toBe(8);
  });
});
