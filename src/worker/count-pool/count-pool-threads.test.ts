// The count pool on real threads (node:worker_threads), each running the app's count-worker handler.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { threadCountWorker, threadHandle } from '../../../bench/pool-threads.ts';
import { importText } from '../../core/import/run.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { getCounter } from '../../core/tokens/counters.ts';
import { countEntries } from '../../core/tokens/entry-tokens.ts';
import { CountPool } from './count-pool.ts';
import { CountWorkerCrashedError, type CountWorkerFactory } from './count-pool-protocol.ts';
import { countWork } from './count-pool-shards.ts';
import { CancelledError } from '../../core/cancel.ts';

const THREAD_TEST_MS = 180_000;

function sample(path: string): Entry[] {
  return importText(readFileSync(`public/samples/${path}`), { fileName: path }).entries;
}

/** A thread that says it is ready at once, then throws an uncaught error when it is given entries to count. */
const CRASHING = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.type === 'warm') parentPort.postMessage({ type: 'ready', counter: m.counter });
  if (m.type === 'count') throw new Error('count thread blew up');
});`;
const crashingThread: CountWorkerFactory = (events) => threadHandle(new Worker(CRASHING, { eval: true }), events);

const pools: CountPool[] = [];
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

function threadPool(spawn: CountWorkerFactory): CountPool {
  const pool = new CountPool({ spawn, size: 2, idleMs: 0, inThread: false });
  pools.push(pool);
  return pool;
}

const never = new AbortController().signal;

describe('CountPool on worker threads', () => {
  it('counts real samples to the totals of one worker, entry for entry; a cancel mid-way leaves the threads ready for the next count', async () => {
    const o200k = await getCounter('o200k');
    const replies: string[] = [];
    const pool = threadPool((events) => threadCountWorker({
      crash: events.crash,
      message: (reply) => {
        replies.push(reply.type);
        events.message(reply);
      },
    }));
    const airline = sample('openai-chat/gpt-4o-airline.json');
    const pi = sample('pi/large-session.jsonl');

    expect(await pool.count(countWork(airline), 'o200k', never)).toEqual(countEntries(airline, o200k));

    const controller = new AbortController();
    const seen: number[] = [];
    const cancelled = pool.count(countWork(airline), 'o200k', controller.signal, (done) => {
      seen.push(done);
      controller.abort();
    });
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    expect(seen.length).toBeGreaterThan(0);

    expect(await pool.count(countWork(pi), 'o200k', never)).toEqual(countEntries(pi, o200k));
    expect(pool.started).toBe(2);
    // Whether a thread was stopped mid-shard depends on the timing of real threads: the in-process
    // test (count-pool.test.ts) holds shards back to prove that cancels reach busy workers.
    expect(replies.filter((type) => type === 'done' || type === 'cancelled').length).toBeGreaterThan(0);
  }, THREAD_TEST_MS);

  it('a thread that crashes fails the job with a clear message, and the next job runs on a fresh thread', async () => {
    const o200k = await getCounter('o200k');
    let spawned = 0;
    // The second thread started crashes; every later one is a real count worker.
    const pool = threadPool((events) => (++spawned === 2 ? crashingThread(events) : threadCountWorker(events)));
    const entries = sample('pi/large-session.jsonl');

    const error = await pool.count(countWork(entries), 'o200k', never).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(CountWorkerCrashedError);
    expect((error as Error).message).toMatch(/^A token-counting worker stopped unexpectedly: count thread blew up\. The count was stopped and nothing was stored; .* run it again\.$/);

    expect(await pool.count(countWork(entries), 'o200k', never)).toEqual(countEntries(entries, o200k));
    expect(pool.started).toBe(3);
  }, THREAD_TEST_MS);
});
