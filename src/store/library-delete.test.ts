import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { db } from '../db/db.ts';
import { Engine } from '../worker/engine/engine.ts';
import { deleteFromLibrary } from './library-actions.ts';

describe('deleting from the library with no callback given', () => {
  it('deletes a conversation with no live session open in this tab (the live code loaded to ask)', async () => {
    const done = await new Engine(db).importBlob(new Blob([readFileSync('public/samples/pi/v3-small.jsonl')]), { jobId: 'i', fileName: 'v3-small.jsonl', origin: 'file' }, () => undefined);
    await deleteFromLibrary(done.conversation.id);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);
  });
});
