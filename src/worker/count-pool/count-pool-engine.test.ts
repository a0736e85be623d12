// The engine with a count pool: imports counted by the pool store what counting in place stores.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../../db/schema.ts';
import { CountPool } from './count-pool.ts';
import { localWorkers, type LocalWorkers } from './count-pool-testing.ts';
import { Engine } from '../engine/engine.ts';
import type { JobProgress } from '../engine/protocol.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const AIRLINE = readFileSync('public/samples/openai-chat/gpt-4o-airline.json');

const opened: FoldlabDatabase[] = [];
const pools: CountPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  for (const db of opened.splice(0)) await db.delete();
});

function database(): FoldlabDatabase {
  const db = new FoldlabDatabase(`pool-${Math.random()}`);
  opened.push(db);
  return db;
}

/** An engine whose pool takes anything over 1,000 characters (the samples here are small). */
function pooledEngine(workers: LocalWorkers = localWorkers(), inThread = true): { engine: Engine; db: FoldlabDatabase; pool: CountPool } {
  const pool = new CountPool({ spawn: workers.factory, size: 2, idleMs: 0, minChars: 1000, inThread });
  pools.push(pool);
  const db = database();
  return { engine: new Engine(db, { countPool: pool }), db, pool };
}

const file = (name: string) => ({ jobId: `import-${name}`, fileName: name, origin: 'file' as const });

describe('Engine with a count pool', () => {
  it('stores the same counts, entry for entry, as the engine counting in place', async () => {
    const pooled = pooledEngine();
    const alone = new Engine(database());
    for (const [name, bytes] of [['claude.jsonl', CLAUDE], ['airline.json', AIRLINE]] as const) {
      const progress: JobProgress[] = [];
      const a = await pooled.engine.importBlob(new Blob([bytes]), file(name), (p) => progress.push(p));
      const b = await alone.importBlob(new Blob([bytes]), file(name), () => undefined);
      expect(a.report, name).toEqual(b.report);
      const countedA = await pooled.engine.countTokens('a', a.conversation.id, 'o200k', () => undefined);
      const countedB = await alone.countTokens('b', b.conversation.id, 'o200k', () => undefined);
      expect(countedA.cached && countedB.cached).toBe(true);
      expect([...countedA.totals]).toEqual([...countedB.totals]);
      const sums = ({ total, byRole, byKind }: typeof countedA) => ({ total, byRole, byKind });
      expect(sums(countedA)).toEqual(sums(countedB));
      const counting = progress.filter((p) => p.phase === 'counting');
      expect(counting.at(-1)).toMatchObject({ done: a.report.entries, total: a.report.entries });
    }
    expect(pooled.pool.started).toBe(1);
  });

  it('a cancel while the pool counts stores nothing, and the next import is counted right', async () => {
    const { engine, db, pool } = pooledEngine();
    const phases: string[] = [];
    const pending = engine.importBlob(new Blob([AIRLINE]), file('airline.json'), (p) => {
      phases.push(p.phase);
      if (p.phase === 'counting' && p.done > 0) engine.cancel('import-airline.json');
    });
    await expect(pending).rejects.toThrow('Cancelled: nothing was changed.');
    expect(phases).not.toContain('saving');
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);

    const again = await engine.importBlob(new Blob([AIRLINE]), file('airline.json'), () => undefined);
    const alone = await new Engine(database()).importBlob(new Blob([AIRLINE]), file('airline.json'), () => undefined);
    expect(again.report.tokens).toEqual(alone.report.tokens);
    expect(pool.started).toBe(1);
  });

  it('a count worker that crashes fails the import with its message and stores nothing; the next import works', async () => {
    // Workers only, and the first one holds its first shard's reply back: it still holds that shard
    // when the other's progress arrives and it crashes, however fast the machine counts.
    const workers = localWorkers({ delayDone: (index, task) => (index === 0 && task === 0 ? 5_000 : 0) });
    const { engine, db } = pooledEngine(workers, false);
    let crashed = false;
    const pending = engine.importBlob(new Blob([AIRLINE]), file('airline.json'), (p) => {
      if (p.phase !== 'counting' || p.done === 0 || crashed) return;
      crashed = true;
      workers.workers[0]!.crash('out of memory');
    });
    await expect(pending).rejects.toMatchObject({ name: 'CountWorkerCrashedError', message: expect.stringMatching(/^A token-counting worker stopped unexpectedly: out of memory\./) });
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);

    const done = await engine.importBlob(new Blob([CLAUDE]), file('claude.jsonl'), () => undefined);
    expect(done.report.tokens.total).toBeGreaterThan(0);
    expect(await db.conversations.count()).toBe(1);
  });
});
