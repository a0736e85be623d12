/** The live-session repository on fake-indexeddb: entries appended in order, runs stored, the row deleted with its conversation. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../core/journal/entry.ts';
import { deleteConversation, loadEntries } from './conversations.ts';
import type { LiveSessionConfig } from './live-session-row.ts';
import { appendLiveEntry, countLiveCall, createLiveSession, LiveSessionGoneError, liveSession, storeLiveRun } from './live-sessions.ts';
import { FoldlabDatabase } from './schema.ts';

const config: LiveSessionConfig = { model: { kind: 'scripted', name: 's.json', script: [] }, strategy: 'pi', options: { keepRecentTokens: '400' }, contextWindow: 8000, counter: 'chars4', gitignore: true };
const entry = (index: number, parentId: string | null): Entry => ({ id: `a${index}`, index, parentId, role: index % 2 ? 'assistant' : 'user', kind: 'message', blocks: [{ type: 'text', text: `text ${index}` }], sourceType: 'live', line: index + 1 });

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

async function setup() {
  db = new FoldlabDatabase(`live-${Math.random()}`);
  return createLiveSession(db, { title: 'Live: repo', config, folder: { name: 'repo', snapshot: true } }, 1_000);
}

describe('live sessions in the library', () => {
  it('starts as an empty pi conversation of origin live, with its settings', async () => {
    const row = await setup();
    expect(row).toMatchObject({ format: 'pi', origin: 'live', entryCount: 0, title: 'Live: repo', meta: { cwd: 'repo' } });
    expect((await liveSession(db, row.id))?.config).toEqual(config);
  });

  it('each entry is stored at once, and the journal version (importId) changes with it', async () => {
    const row = await setup();
    const versions = new Set([row.importId]);
    for (let i = 0; i < 4; i++) {
      await appendLiveEntry(db, row.id, entry(i, i === 0 ? null : `a${i - 1}`));
      const now = await db.conversations.get(row.id);
      expect(now?.entryCount).toBe(i + 1);
      versions.add(now!.importId);
    }
    expect(versions.size).toBe(5);
    expect((await loadEntries(db, row.id)).map((e) => e.id)).toEqual(['a0', 'a1', 'a2', 'a3']);
  });

  it('an entry out of order is refused and nothing is written', async () => {
    const row = await setup();
    await expect(appendLiveEntry(db, row.id, entry(2, null))).rejects.toThrow('entry a2 has index 2, but the stored journal has 0 entries');
    expect(await db.entries.count()).toBe(0);
  });

  it('a run is stored with the journal version it was made on; deleting the conversation removes the session row', async () => {
    const row = await setup();
    await appendLiveEntry(db, row.id, entry(0, null));
    const current = await db.conversations.get(row.id);
    const stored = await storeLiveRun(db, { id: 'r1', conversationId: row.id, createdAt: 2, strategy: 'pi', counter: 'chars4', contextWindow: 8000, plan: {} as never, context: [], summaries: {}, previous: { strategy: 'pi', summaries: [] }, record: {} as never, journalIndex: [] });
    expect(stored.importId).toBe(current?.importId);
    await deleteConversation(db, row.id);
    expect(await liveSession(db, row.id)).toBeUndefined();
    await expect(appendLiveEntry(db, row.id, entry(1, 'a0'))).rejects.toBeInstanceOf(LiveSessionGoneError);
  });

  it('counts the model calls a session made, for a scripted model to continue from after a reload', async () => {
    const row = await setup();
    expect((await liveSession(db, row.id))?.modelCalls).toBeUndefined();
    for (let i = 0; i < 3; i++) await countLiveCall(db, row.id);
    const stored = await liveSession(db, row.id);
    expect(stored?.modelCalls).toBe(3);
    expect(stored?.config).toEqual(config);
    await deleteConversation(db, row.id);
    await countLiveCall(db, row.id);
    expect(await liveSession(db, row.id)).toBeUndefined();
  });
});
