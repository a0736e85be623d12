import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../../worker/engine/engine.ts';
import { deleteFromLibrary } from './delete-conversation.ts';

let db: FoldlabDatabase | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

async function imported(): Promise<{ db: FoldlabDatabase; id: string }> {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const done = await new Engine(db).importBlob(new Blob([readFileSync('public/samples/pi/v3-small.jsonl')]), { jobId: 'i', fileName: 'v3-small.jsonl', origin: 'file' }, () => undefined);
  return { db, id: done.conversation.id };
}

describe('deleteFromLibrary', () => {
  it('closes the live session of the conversation before its rows go, and waits for it', async () => {
    const { db, id } = await imported();
    const order: string[] = [];
    await deleteFromLibrary(db, id, async (closed) => {
      await Promise.resolve();
      order.push(`close ${closed === id}`, `rows ${await db.entries.where('conversationId').equals(id).count() > 0}`);
    });
    order.push(`rows ${await db.entries.where('conversationId').equals(id).count() > 0}`);
    expect(order).toEqual(['close true', 'rows true', 'rows false']);
    expect(await db.conversations.get(id)).toBeUndefined();
  });

  it('deletes a conversation with no live session open in this tab', async () => {
    const { db, id } = await imported();
    await deleteFromLibrary(db, id);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);
  });
});
