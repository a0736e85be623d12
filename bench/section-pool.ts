/**
 * Section 10, counting with a pool of workers: the ~13 MB generated session counted (o200k) the way
 * the engine counts a large import, in place (one worker), by one worker thread, by the app's pool
 * (this thread plus worker threads, one per core) and by worker threads alone, with the speed-up against one worker and the load average
 * at each figure (other processes on the machine take cores too). Every count must give the same
 * per-entry totals as counting in place.
 */
import { availableParallelism, loadavg } from 'node:os';
import { importText } from '../src/core/import/run.ts';
import { getCounter } from '../src/core/tokens/counters.ts';
import type { EntriesTokens } from '../src/core/tokens/entry-tokens.ts';
import { countEntriesSliced } from '../src/core/tokens/sliced-count.ts';
import { CountPool } from '../src/worker/count-pool/count-pool.ts';
import { poolSize } from '../src/worker/count-pool/count-pool-protocol.ts';
import { countWork } from '../src/worker/count-pool/count-pool-shards.ts';
import { collectGarbage, duration, fmt, mb, printPairs, printTable, timed } from './report.ts';
import { threadCountWorker } from './pool-threads.ts';
import { releaseSession, sessionText } from './session.ts';

/** Timed rounds after the first (cold) one; each row keeps its best. Default 3. Unit: rounds. */
export const POOL_ROUNDS = 3;

interface Row {
  label: string;
  workers: number;
  firstMs: number;
  bestMs: number;
  /** 1-minute load average when the best round ran. */
  load: number;
  same: boolean;
}

const never = new AbortController().signal;

function sameCounts(a: EntriesTokens, b: EntriesTokens): boolean {
  return a.totals.length === b.totals.length && a.totals.every((n, i) => n === b.totals[i]) &&
    JSON.stringify([a.byKind, a.byRole]) === JSON.stringify([b.byKind, b.byRole]);
}

export async function poolSection(): Promise<void> {
  const jsonl = sessionText();
  const { entries, format } = importText(jsonl, { fileName: 'session-13mb.jsonl' });
  const bytes = Buffer.byteLength(jsonl);
  releaseSession();
  const prepared = timed(() => countWork(entries));
  const work = prepared.value;
  const counter = await getCounter('o200k');
  const size = poolSize(availableParallelism());
  printPairs([
    ['transcript', `${mb(bytes)}, ${fmt(entries.length)} entries (${format}), ${fmt(work.chars)} characters of text`],
    ['machine', `${availableParallelism()} logical cores -> the app's pool: this thread + ${size - 1} worker${size === 2 ? '' : 's'} (cap 4 threads)`],
    ['entries reduced for the pool', duration(prepared.ms)],
    ['rounds', `1 cold (threads start, load tsx and the o200k tables) + best of ${POOL_ROUNDS}, interleaved`],
  ]);
  collectGarbage();

  const inPlace = () => {
    const slices = countEntriesSliced(entries, counter);
    for (;;) {
      const step = slices.next();
      if (step.done) return step.value;
    }
  };
  const reference = inPlace();
  const rows: Row[] = [{ label: 'in place (the engine worker alone)', workers: 1, firstMs: Number.NaN, bestMs: Number.POSITIVE_INFINITY, load: 0, same: true }];
  // One worker thread alone; the app's pool (this thread and size - 1 threads); size threads alone.
  const configs = [
    { label: '1 worker thread', size: 1, inThread: false },
    ...(size > 1 ? [{ label: `app pool: this thread + ${size - 1} thread${size > 2 ? 's' : ''}`, size, inThread: true }, { label: `${size} worker threads`, size, inThread: false }] : []),
  ];
  const pools = configs.map((c) => new CountPool({ spawn: threadCountWorker, size: c.size, inThread: c.inThread, idleMs: 0 }));
  for (const c of configs) rows.push({ label: c.label, workers: c.size, firstMs: 0, bestMs: Number.POSITIVE_INFINITY, load: 0, same: true });
  try {
    for (let round = 0; round <= POOL_ROUNDS; round++) {
      const local = timed(inPlace);
      record(rows[0]!, round, local.ms, sameCounts(local.value, reference));
      for (const [i, pool] of pools.entries()) {
        collectGarbage();
        const start = performance.now();
        const counted = await pool.count(work, 'o200k', never);
        record(rows[i + 1]!, round, performance.now() - start, sameCounts(counted, reference));
      }
    }
  } finally {
    for (const pool of pools) pool.close();
  }

  const chars = work.chars / 1e6;
  const oneThread = rows[1]!;
  printTable(
    ['counted by', 'first', 'best', 'M chars/s', 'vs in place', 'vs 1 thread', 'load (1 min)', 'same totals'],
    rows.map((row) => [
      row.label, Number.isNaN(row.firstMs) ? '-' : duration(row.firstMs), duration(row.bestMs), fmt(chars / (row.bestMs / 1000)),
      `${fmt(rows[0]!.bestMs / row.bestMs, 2)}x`, `${fmt(oneThread.bestMs / row.bestMs, 2)}x`, fmt(row.load, 2), row.same ? 'yes' : 'NO',
    ]),
  );
  printPairs([['note', `in place counts without yielding; a pool cuts ${fmt(4)} shards per thread; 'first' includes starting the threads and loading their tables`]]);
}

function record(row: Row, round: number, ms: number, same: boolean): void {
  row.same &&= same;
  if (round === 0) {
    if (!Number.isNaN(row.firstMs)) row.firstMs = ms;
    return;
  }
  if (ms < row.bestMs) {
    row.bestMs = ms;
    row.load = loadavg()[0] ?? Number.NaN;
  }
}
