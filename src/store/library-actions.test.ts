// The Library panel's changes to the library, on the page's own database (fake-indexeddb in Node).
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PREFERENCES_KEY } from '../db/backup-trust.ts';
import { db } from '../db/db.ts';
import { Engine } from '../worker/engine/engine.ts';
import { backupEndpoints, backupLibrary, deleteFromLibrary, readBackupFile, renameInLibrary, restoreLibrary, toggleFoldBookmark } from './library-actions.ts';
import { foldBookmarks } from './library-reads.ts';

afterEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
});

async function imported(): Promise<string> {
  const done = await new Engine(db).importBlob(new Blob([readFileSync('public/samples/pi/v3-small.jsonl')]), { jobId: 'i', fileName: 'v3-small.jsonl', origin: 'file' }, () => undefined);
  return done.conversation.id;
}

const entriesOf = (id: string) => db.entries.where('conversationId').equals(id).count();

describe('renaming and deleting', () => {
  it('renames with the title trimmed, and refuses an empty one with the reason', async () => {
    const id = await imported();
    await renameInLibrary(id, '  The parser fix  ');
    expect((await db.conversations.get(id))?.title).toBe('The parser fix');
    await expect(renameInLibrary(id, '   ')).rejects.toThrow('A conversation needs a name: the title cannot be empty.');
    expect((await db.conversations.get(id))?.title).toBe('The parser fix');
  });

  it('closes the live session of the conversation before its rows go, and waits for it', async () => {
    const id = await imported();
    const order: string[] = [];
    await deleteFromLibrary(id, async (closed) => {
      await Promise.resolve();
      order.push(`close ${closed === id}`, `rows ${(await entriesOf(id)) > 0}`);
    });
    order.push(`rows ${(await entriesOf(id)) > 0}`);
    expect(order).toEqual(['close true', 'rows true', 'rows false']);
    expect(await db.conversations.get(id)).toBeUndefined();
  });

  it('keeps the conversation when its live session fails to close', async () => {
    const id = await imported();
    await expect(deleteFromLibrary(id, () => Promise.reject(new Error('the session is writing')))).rejects.toThrow('the session is writing');
    expect(await db.conversations.get(id)).toBeDefined();
  });
});

describe('fold bookmarks', () => {
  it('are toggled per conversation and read back in order', async () => {
    expect(await toggleFoldBookmark('c1', 12)).toBe(true);
    expect(await toggleFoldBookmark('c1', 3)).toBe(true);
    expect(await toggleFoldBookmark('c2', 7)).toBe(true);
    expect(await foldBookmarks('c1')).toEqual([3, 12]);
    expect(await toggleFoldBookmark('c1', 12)).toBe(false);
    expect(await foldBookmarks('c1')).toEqual([3]);
    expect(await foldBookmarks('c2')).toEqual([7]);
  });
});

describe('backup and restore', () => {
  it('restores a backup of the library into an emptied one: the conversation, its entries, no provider settings to apply', async () => {
    const id = await imported();
    const entries = await entriesOf(id);
    const backup = await readBackupFile(await backupLibrary());
    await Promise.all(db.tables.map((table) => table.clear()));
    const outcome = await restoreLibrary(backup, false);
    expect(outcome).toMatchObject({ settings: 'none', report: { added: 1, existing: 0 } });
    expect(outcome.unchecked).toBeUndefined();
    expect(await entriesOf(id)).toBe(entries);
    // Restored again: merged, nothing duplicated.
    expect((await restoreLibrary(backup, false)).report).toMatchObject({ added: 0, existing: 1 });
  });

  it("applies the backup's endpoints only when asked, and says which was done", async () => {
    const remote = { presetId: 'openai', api: 'openai', baseUrl: 'https://proxy.example/v1', model: 'gpt-4o-mini' };
    await db.settings.put({ key: PREFERENCES_KEY, value: { state: { counter: 'o200k', summarizerKind: 'remote', remote }, version: 1 } });
    const backup = await readBackupFile(await backupLibrary());
    expect(backupEndpoints(backup)).toEqual([{ label: 'Remote summarizer (openai · gpt-4o-mini)', url: 'https://proxy.example/v1' }]);
    await db.settings.clear();
    expect((await restoreLibrary(backup, false)).settings).toBe('kept');
    expect(((await db.settings.get(PREFERENCES_KEY))?.value as { state: { remote?: unknown } }).state.remote).toBeUndefined();
    expect((await restoreLibrary(backup, true)).settings).toBe('applied');
    expect(((await db.settings.get(PREFERENCES_KEY))?.value as { state: { remote?: unknown } }).state.remote).toEqual(remote);
  });

  it('refuses a file that is not a backup, naming the line, and writes nothing', async () => {
    await expect(readBackupFile(new Blob(['{"not":"a backup"}\n']))).rejects.toThrow(/line 1/);
    expect(await db.conversations.count()).toBe(0);
  });
});
