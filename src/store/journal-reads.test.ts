import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { db } from '../db/db.ts';
import { Engine } from '../worker/engine/engine.ts';
import { conversationRow, pinnedEntryIds, readJournal, togglePin } from './journal-reads.ts';

async function imported(): Promise<string> {
  const done = await new Engine(db).importBlob(new Blob([readFileSync('public/samples/pi/v3-small.jsonl')]), { jobId: 'i', fileName: 'v3-small.jsonl', origin: 'file' }, () => undefined);
  return done.conversation.id;
}

describe('the open conversation read through the store', () => {
  it('reads the row and the journal in index order, and nothing for an unknown id', async () => {
    const id = await imported();
    expect((await conversationRow(id))?.fileName).toBe('v3-small.jsonl');
    expect(await conversationRow('none')).toBeUndefined();
    const journal = await readJournal(id);
    expect(journal.map((entry) => entry.index)).toEqual([...journal.keys()]);
    expect(journal.length).toBe((await conversationRow(id))?.entryCount);
  });

  it('gives back the entries shown when the journal has not grown, and reads it whole when it was rewritten', async () => {
    const id = await imported();
    const shown = await readJournal(id);
    expect(await readJournal(id, shown)).toBe(shown);
    const rewritten = shown.map((entry) => ({ ...entry, id: `${entry.id}-old` }));
    expect((await readJournal(id, rewritten)).map((entry) => entry.id)).toEqual(shown.map((entry) => entry.id));
  });

  it('pins an entry and unpins it', async () => {
    const id = await imported();
    const [entry] = await readJournal(id);
    await togglePin(id, entry!.id, false);
    expect(await pinnedEntryIds(id)).toEqual(new Set([entry!.id]));
    await togglePin(id, entry!.id, true);
    expect(await pinnedEntryIds(id)).toEqual(new Set());
  });
});
