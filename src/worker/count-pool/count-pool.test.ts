import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../../core/import/run.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { getCounter, getEstimator } from '../../core/tokens/counters.ts';
import { countEntries } from '../../core/tokens/entry-tokens.ts';
import { CountPool, type CountPoolOptions } from './count-pool.ts';
import { CountWorkerCrashedError, MAX_POOL_SIZE, poolSize, type CountWorkerFactory } from './count-pool-protocol.ts';
import { countWork } from './count-pool-shards.ts';
import { localWorkers, SAMPLES, type LocalWorkers } from './count-pool-testing.ts';
import { CancelledError } from '../../core/cancel.ts';

const AIRLINE = 'openai-chat/gpt-4o-airline.json';

function sample(path: string): Entry[] {
  return importText(readFileSync(`public/samples/${path}`), { fileName: path }).entries;
}

const pools: CountPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

function pool(workers: LocalWorkers, options: Partial<CountPoolOptions> = {}): CountPool {
  const made = new CountPool({ spawn: workers.factory, size: 2, idleMs: 0, inThread: false, ...options });
  pools.push(made);
  return made;
}

const never = new AbortController().signal;

describe('poolSize', () => {
  it('is one per logical core, capped, and one when the count is 1 or unknown', () => {
    expect([undefined, 0, 1, Number.NaN, -3].map((n) => poolSize(n))).toEqual([1, 1, 1, 1, 1]);
    expect([2, 3, 4, 16, 128].map((n) => poolSize(n))).toEqual([2, 3, 4, MAX_POOL_SIZE, MAX_POOL_SIZE]);
    expect(poolSize(16, 8)).toBe(8);
  });
});

describe('CountPool', () => {
  it('counts every real sample to the same per-entry totals and sums as one worker', async () => {
    const o200k = await getCounter('o200k');
    const workersOnly = pool(localWorkers(), { size: 3 });
    const withThisThread = pool(localWorkers(), { size: 3, inThread: true });
    for (const path of SAMPLES) {
      const entries = sample(path);
      const one = countEntries(entries, o200k);
      expect(await workersOnly.count(countWork(entries), 'o200k', never), path).toEqual(one);
      expect(await withThisThread.count(countWork(entries), 'o200k', never), path).toEqual(one);
    }
    expect([workersOnly.started, withThisThread.started]).toEqual([3, 2]);
  });

  it('counts in this thread at once: a worker still loading its tables takes no shard, one that cannot load them is dropped', async () => {
    const counter = getEstimator('chars4');
    const entries = sample('pi/large-session.jsonl');
    const loading: string[] = [];
    const neverReady: CountWorkerFactory = () => ({ post: (request) => loading.push(request.type), terminate: () => undefined });
    expect(await pool({ factory: neverReady, workers: [] }, { inThread: true }).count(countWork(entries), 'chars4', never)).toEqual(countEntries(entries, counter));
    expect(loading).toEqual(['warm']);

    const offline: CountWorkerFactory = (events) => ({
      post: (request) => {
        if (request.type === 'warm') queueMicrotask(() => events.message({ type: 'unavailable', counter: request.counter, message: 'the chars4 tables could not be loaded (offline)' }));
      },
      terminate: () => undefined,
    });
    const degraded = pool({ factory: offline, workers: [] }, { inThread: true, size: 3 });
    expect(await degraded.count(countWork(entries), 'chars4', never)).toEqual(countEntries(entries, counter));
    expect(degraded.started).toBe(2);
    await expect(pool({ factory: offline, workers: [] }).count(countWork(entries), 'chars4', never)).rejects.toThrow(
      'The count could not run: the chars4 tables could not be loaded (offline).',
    );
  });

  it('takes only large journals counted with an exact counter, and none with a pool of one', async () => {
    const o200k = await getCounter('o200k');
    const counting = pool(localWorkers());
    expect(counting.prepare(sample('pi/large-session.jsonl'), o200k)).toBeUndefined();
    expect(counting.prepare(sample(AIRLINE), o200k)?.chars).toBeGreaterThan(1_000_000);
    expect(counting.prepare(sample(AIRLINE), getEstimator('chars4'))).toBeUndefined();
    expect(pool(localWorkers(), { size: 1 }).prepare(sample(AIRLINE), o200k)).toBeUndefined();
  });

  it('keeps journal order when shards finish in any order (property)', async () => {
    const counter = getEstimator('chars4');
    const entries = sample('pi/large-session.jsonl');
    const expected = countEntries(entries, counter);
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 6 }), fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 12 }), async (size, shardsPerWorker, delays) => {
      const workers = localWorkers({ delayDone: (index, task) => delays[(index * 7 + task) % delays.length]! });
      const counting = pool(workers, { size, shardsPerWorker });
      expect(await counting.count(countWork(entries), 'chars4', never)).toEqual(expected);
    }), { numRuns: 25 });
  });

  it('reports progress that moves up to the total', async () => {
    const entries = sample(AIRLINE);
    const seen: number[] = [];
    await pool(localWorkers()).count(countWork(entries), 'o200k', never, (done, total) => {
      expect(total).toBe(entries.length);
      seen.push(done);
    });
    expect(new Set(seen).size).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeLessThanOrEqual(entries.length);
  });

  it('a cancel while counting rejects at once, stops every worker at its next slice, and the next count is right', async () => {
    const o200k = await getCounter('o200k');
    // Each worker's first piece is held back, so both are busy when the cancel comes.
    const workers = localWorkers({ delayDone: (_index, task) => (task === 0 ? 1_500 : 0) });
    const counting = pool(workers);
    const entries = sample(AIRLINE);
    const controller = new AbortController();
    const pending = counting.count(countWork(entries), 'o200k', controller.signal);
    await until(() => workers.workers.length === 2 && workers.workers.every((w) => w.received.some((r) => r.type === 'count')));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await until(() => workers.workers.every((w) => w.received.some((r) => r.type === 'cancel')));
    expect(workers.workers.map((w) => w.received.filter((r) => r.type === 'cancel').length)).toEqual([1, 1]);

    expect(await counting.count(countWork(entries), 'o200k', never)).toEqual(countEntries(entries, o200k));
    expect(counting.started).toBe(2);
  });

  it('a signal already aborted counts nothing', async () => {
    const workers = localWorkers();
    const controller = new AbortController();
    controller.abort();
    await expect(pool(workers).count(countWork(sample(AIRLINE)), 'o200k', controller.signal)).rejects.toThrow('Cancelled: nothing was changed.');
    expect(workers.workers).toHaveLength(0);
  });

  it('a worker that crashes fails its job with a clear message; the next job runs on a fresh worker', async () => {
    const o200k = await getCounter('o200k');
    // Each worker's first piece is held back, so the crash comes while both are counting.
    const workers = localWorkers({ delayDone: (_index, task) => (task === 0 ? 1_500 : 0) });
    const counting = pool(workers);
    const entries = sample(AIRLINE);
    const pending = counting.count(countWork(entries), 'o200k', never);
    await until(() => workers.workers.length === 2 && workers.workers.every((w) => w.received.some((r) => r.type === 'count')));
    workers.workers[1]!.crash('Uncaught RangeError: Invalid array length');
    const error = await pending.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(CountWorkerCrashedError);
    expect((error as Error).message).toBe(
      'A token-counting worker stopped unexpectedly: Uncaught RangeError: Invalid array length. The count was stopped and nothing was stored; a fresh worker is started for the next job: run it again.',
    );
    expect(workers.workers[1]!.terminated).toBe(true);
    await until(() => workers.workers[0]!.received.some((r) => r.type === 'cancel'));
    expect(counting.alive).toBe(1);

    expect(await counting.count(countWork(entries), 'o200k', never)).toEqual(countEntries(entries, o200k));
    expect(counting.started).toBe(3);
    expect(workers.workers[2]!.terminated).toBe(false);
  });

  it('a counter the workers cannot load fails the job with the reason, and the pool stays usable for others', async () => {
    const workers = localWorkers();
    const counting = pool(workers);
    const entries = sample('pi/v3-small.jsonl');
    await expect(counting.count(countWork(entries), 'nope' as 'o200k', never)).rejects.toMatchObject({
      name: 'CountUnavailableError',
      message: 'The count could not run: the nope tables could not be loaded ("nope" is not an estimator; use getCounter for exact counters).',
    });
    expect(await counting.count(countWork(entries), 'chars4', never)).toEqual(countEntries(entries, getEstimator('chars4')));
    expect(counting.started).toBe(2);
  });

  it('warms every worker ahead of a count, and stops them after a while without work', async () => {
    const workers = localWorkers();
    const counting = pool(workers, { idleMs: 20 });
    counting.warm('o200k');
    expect(workers.workers).toHaveLength(2);
    await until(() => workers.workers.every((w) => w.received.some((r) => r.type === 'warm')));
    await until(() => counting.alive === 0);
    expect(workers.workers.every((w) => w.terminated)).toBe(true);

    const entries = sample('pi/v3-small.jsonl');
    expect(await counting.count(countWork(entries), 'chars4', never)).toEqual(countEntries(entries, getEstimator('chars4')));
    expect(counting.started).toBe(4);
  });

  it('runs two jobs at once without mixing their entries', async () => {
    const o200k = await getCounter('o200k');
    const counting = pool(localWorkers());
    const [a, b] = [sample('pi/large-session.jsonl'), sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl')];
    const [countedA, countedB] = await Promise.all([counting.count(countWork(a), 'o200k', never), counting.count(countWork(b), 'o200k', never)]);
    expect(countedA).toEqual(countEntries(a, o200k));
    expect(countedB).toEqual(countEntries(b, o200k));
  });
});

/** Waits for `condition` (checked every few milliseconds; the test's timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
