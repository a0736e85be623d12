import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { commitImport, loadEntries } from './conversations.ts';
import { readGrownJournal } from './journal-tail.ts';
import { appendLiveEntry, createLiveSession } from './live-sessions.ts';
import { FoldlabDatabase } from './schema.ts';

const PI = importText(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8'));
const CLAUDE = importText(readFileSync('public/samples/claude-code/dag_compact_after_rewind.jsonl', 'utf8'));

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

async function liveSessionWith(count: number): Promise<string> {
  const row = await createLiveSession(db, {
    title: 'Live', folder: { name: 'folder', snapshot: true },
    config: { model: { kind: 'scripted', name: 'script.json', script: [] }, strategy: 'pi', options: {}, contextWindow: 8000, counter: 'chars', gitignore: false },
  });
  for (const entry of PI.entries.slice(0, count)) await appendLiveEntry(db, row.id, entry);
  return row.id;
}

describe('readGrownJournal', () => {
  it('appends only the new entries and keeps the held ones as they are', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const id = await liveSessionWith(3);
    const first = await readGrownJournal(db, id);
    expect(first.map((e) => e.index)).toEqual([0, 1, 2]);
    for (const entry of PI.entries.slice(3, 6)) await appendLiveEntry(db, id, entry);
    const grown = await readGrownJournal(db, id, first);
    expect(grown.map((e) => e.id)).toEqual(PI.entries.slice(0, 6).map((e) => e.id));
    // The held entries are the same objects: memoized rows of them are not drawn again.
    for (let i = 0; i < first.length; i++) expect(grown[i]).toBe(first[i]);
    expect(grown).toEqual(await loadEntries(db, id));
  });

  it('returns the held array itself when nothing was appended', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const id = await liveSessionWith(4);
    const held = await readGrownJournal(db, id);
    expect(await readGrownJournal(db, id, held)).toBe(held);
  });

  it('reads the whole journal again when the stored one no longer starts with the held entries', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    const held = await readGrownJournal(db, row.id);
    await commitImport(db, CLAUDE, { fileName: 'dag.jsonl', size: 5, origin: 'file', replaceId: row.id });
    const after = await readGrownJournal(db, row.id, held);
    expect(after).toEqual(await loadEntries(db, row.id));
    expect(after.map((e) => e.id)).toEqual(CLAUDE.entries.map((e) => e.id));
  });

  it('reads the whole journal when nothing is held', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const id = await liveSessionWith(5);
    expect(await readGrownJournal(db, id, [])).toEqual(await loadEntries(db, id));
  });
});
