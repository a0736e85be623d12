import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { clearJudgements, countJudgements, judgementCache, storeJudgements } from './judgements.ts';
import { FoldlabDatabase } from './schema.ts';

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('the judged mode cache', () => {
  it('gives back answers and grades by key, each only as its own kind', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const cache = judgementCache(db);
    expect(await cache.answer('a:1')).toBeUndefined();
    await storeJudgements(db, [
      { key: 'a:1', kind: 'answer', model: 'm', text: 'renderer.py was modified' },
      { key: 'g:1', kind: 'grade', model: 'm', score: 4, reason: 'one file missing' },
    ], 5);
    expect(await cache.answer('a:1')).toEqual({ text: 'renderer.py was modified', model: 'm' });
    expect(await cache.grade('g:1')).toEqual({ score: 4, reason: 'one file missing', model: 'm' });
    expect(await cache.grade('a:1')).toBeUndefined();
    expect((await db.judgements.get('a:1'))?.createdAt).toBe(5);
    expect(await countJudgements(db)).toBe(2);
    await clearJudgements(db);
    expect(await countJudgements(db)).toBe(0);
  });

  it('opens a v3 database and adds the table without touching the comparisons', async () => {
    const name = `t-${Math.random()}`;
    const Dexie = (await import('dexie')).default;
    const old = new Dexie(name);
    old.version(3).stores({ conversations: 'id, importedAt', comparisons: 'id, conversationId, [conversationId+createdAt]' });
    await old.table('comparisons').put({ id: 'c1', conversationId: 'x', createdAt: 1 });
    old.close();
    db = new FoldlabDatabase(name);
    expect(await db.comparisons.get('c1')).toMatchObject({ id: 'c1' });
    expect(await db.judgements.count()).toBe(0);
  });
});
