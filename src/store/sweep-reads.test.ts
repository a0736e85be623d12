// What the Sweep tab reads and removes through the store: the library newest first, the saved sweeps newest first, a delete.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../db/db.ts';
import type { ConversationRow } from '../db/schema.ts';
import { saveSweep } from '../db/sweeps.ts';
import { sampleSweep } from '../db/test-sweep.ts';
import { conversationsNewestFirst } from './library-reads.ts';
import { savedSweeps } from './sweep-reads.ts';
import { deleteSavedSweep } from './sweep-actions.ts';

afterEach(async () => {
  await Promise.all([db.conversations.clear(), db.sweeps.clear()]);
});

function conversation(id: string, importedAt: number): ConversationRow {
  return {
    id, title: `session ${id}`, format: 'claude-code', fileName: `${id}.jsonl`, size: 10, importId: `i-${id}`, importedAt, entryCount: 1,
    meta: {}, issues: [], lines: 1, ignoredLines: 0, origin: 'file',
  } as ConversationRow;
}

const SESSIONS = [{ id: 'c1', importId: 'i1', title: 'first' }];

describe('the Sweep tab\'s reads and writes', () => {
  it('lists the library\'s conversations, the latest imported first', async () => {
    await db.conversations.bulkPut([conversation('old', 1), conversation('new', 3), conversation('mid', 2)]);
    expect((await conversationsNewestFirst()).map((c) => c.id)).toEqual(['new', 'mid', 'old']);
  });

  it('lists the saved sweeps newest first, and a delete removes only the one named', async () => {
    const first = await saveSweep(db, sampleSweep(SESSIONS), 10);
    const second = await saveSweep(db, { ...sampleSweep(SESSIONS), name: 'later' }, 20);
    expect((await savedSweeps()).map((row) => row.id)).toEqual([second.id, first.id]);
    await deleteSavedSweep(second.id);
    expect(await savedSweeps()).toEqual([first]);
  });
});
