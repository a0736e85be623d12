import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { entryText } from '../core/journal/entry.ts';
import { linkReport } from '../core/journal/link.ts';
import { readCursorDatabase } from './cursor-db.ts';

const SAMPLE = readFileSync(new URL('../../public/samples/cursor/state.vscdb', import.meta.url));

async function database(build: (db: import('sql.js').Database) => void): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  build(db);
  const bytes = db.export();
  db.close();
  return bytes;
}

describe('Cursor chat store files (state.vscdb)', () => {
  it('reads the sample store: two conversations and a sub-composer (the most recently updated first), an empty draft left out, counts as written by hand', async () => {
    const store = await readCursorDatabase(SAMPLE, 'state.vscdb');
    expect(store.problems).toEqual([]);
    expect(store.empty).toBe(1);
    expect(store.composers.map((c) => [c.name, c.parentId ?? '-', c.document.conversation.length])).toEqual([
      ['Fix the date parser', '-', 8],
      ['Find callers of parse()', 'a1b2c3d4-0000-4000-8000-000000000001', 3],
      ['Explain the build script', '-', 2],
    ]);
    const main = store.composers[0]!;
    const result = importText(JSON.stringify(main.document, null, 1), { format: 'cursor', fileName: `${main.composerId}.json` });
    // 2 user bubbles, 6 assistant bubbles, 4 of them with a finished tool call and its result.
    expect(result.entries.map((entry) => entry.role).join(' ')).toBe('user assistant tool assistant tool assistant tool assistant tool assistant user assistant');
    expect(linkReport(result.entries)).toEqual({ toolCalls: 4, toolResults: 4, orphanToolCalls: 0, orphanToolResults: 0 });
    expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.usage!.input)).toEqual([5120, 5400, 5600, 5900, 6200, 6500]);
    expect(result.entries[4]!.blocks[0]).toMatchObject({ type: 'tool_result', callId: 'toolu_02', isError: true });
    expect(result.meta).toMatchObject({ title: 'Fix the date parser', model: 'claude-4-sonnet' });
  });

  it('refuses a cut-off or damaged file, a database of another program and a store without conversations, each saying why', async () => {
    await expect(readCursorDatabase(SAMPLE.subarray(0, 6000), 'cut.vscdb')).rejects.toThrow(/^"cut\.vscdb" (is not a readable SQLite database|: the \w+ table could not be read)/);
    const garbage = new Uint8Array(8192).fill(7);
    garbage.set(SAMPLE.subarray(0, 100));
    await expect(readCursorDatabase(garbage, 'bad.vscdb')).rejects.toThrow(/"bad\.vscdb" .*(damaged|malformed)/);
    const other = await database((db) => db.run('CREATE TABLE notes (id INTEGER, body TEXT)'));
    await expect(readCursorDatabase(other, 'notes.db')).rejects.toThrow('"notes.db" is an SQLite database but not Cursor\'s state.vscdb: it has no cursorDiskKV or ItemTable table (its tables: notes).');
    const workspace = await database((db) => {
      db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
      db.run("INSERT INTO ItemTable VALUES ('workbench.colorTheme', 'Dark')");
    });
    await expect(readCursorDatabase(workspace, 'state.vscdb')).rejects.toThrow('"state.vscdb" holds no Cursor conversation: it has no composerData:* key and no chat tab with messages (workbench.panel.aichat.view.aichat.chatdata).');
  });

  it('refuses a store over the size it can hold in memory before reading it', async () => {
    await expect(readCursorDatabase(SAMPLE, 'state.vscdb', { maxBytes: 10 * 1024 })).rejects.toThrow('"state.vscdb" is 0.0 MiB; Foldlab reads Cursor chat stores up to 0.0 MiB (the whole file is held in memory while it is read).');
  });

  it('reads values stored as text or as bytes from either table', async () => {
    const bytes = await database((db) => {
      db.run('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
      db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', ['composerData:c1', new TextEncoder().encode(JSON.stringify({ composerId: 'c1', fullConversationHeadersOnly: [{ bubbleId: 'b1', type: 1 }] }))]);
      db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', ['bubbleId:c1:b1', JSON.stringify({ type: 1, bubbleId: 'b1', text: 'héllo' })]);
    });
    const store = await readCursorDatabase(bytes, 'state.vscdb');
    expect(store.composers[0]!.document.conversation).toEqual([{ type: 1, bubbleId: 'b1', text: 'héllo' }]);
  });

  it("reads a workspace store's older chat tabs (ItemTable chatdata): one conversation per tab, user and ai bubbles as the user's and the model's messages", async () => {
    const chatdata = {
      tabs: [
        { tabId: 'tab-1', chatTitle: 'Retry the upload', lastSendTime: 1717000000000, bubbles: [{ type: 'user', id: 'u1', text: 'How do I retry a failed upload?' }, { type: 'ai', id: 'a1', text: 'Wrap it in a loop with exponential backoff.' }, { type: 'user', id: 'u2', text: 'And cap it at 5 tries?' }, { type: 'ai', id: 'a2', rawText: 'Yes: stop after the fifth attempt.' }] },
        { tabId: 'tab-2', chatTitle: '', bubbles: [] },
        { tabId: 'tab-3', bubbles: [{ type: 'user', text: 'Explain this regex' }, { type: 'system', text: '?' }] },
      ],
    };
    const bytes = await database((db) => {
      db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
      db.run('INSERT INTO ItemTable VALUES (?, ?)', ['workbench.panel.aichat.view.aichat.chatdata', JSON.stringify(chatdata)]);
      db.run('INSERT INTO ItemTable VALUES (?, ?)', ['cursorAuth/accessToken', 'secret']);
    });
    const store = await readCursorDatabase(bytes, 'state.vscdb');
    expect(store.empty).toBe(1);
    expect(store.problems).toEqual([{ key: 'workbench.panel.aichat.view.aichat.chatdata', message: 'tabs[2].bubbles[1] is not a "user" or "ai" bubble (type "system"); left out' }]);
    expect(store.composers.map((c) => [c.composerId, c.name, c.document.conversation.length])).toEqual([['tab-1', 'Retry the upload', 4], ['tab-3', 'Explain this regex', 1]]);
    expect(JSON.stringify(store)).not.toContain('secret');
    const tab = store.composers[0]!;
    const result = importText(JSON.stringify(tab.document, null, 1), { format: 'cursor', fileName: `${tab.composerId}.json` });
    expect(result.entries.map((entry) => `${entry.role}:${entryText(entry)}`)).toEqual([
      'user:How do I retry a failed upload?', 'assistant:Wrap it in a loop with exponential backoff.', 'user:And cap it at 5 tries?', 'assistant:Yes: stop after the fifth attempt.',
    ]);
    expect(result.meta.title).toBe('Retry the upload');
  });

  it('names the chat tabs value that is not what it should be, and a store with neither composers nor tabs', async () => {
    const broken = await database((db) => {
      db.run('CREATE TABLE ItemTable (key TEXT, value BLOB)');
      db.run('INSERT INTO ItemTable VALUES (?, ?)', ['workbench.panel.aichat.view.aichat.chatdata', '{"tabs": [{"bubbles": []}]}']);
    });
    await expect(readCursorDatabase(broken, 'state.vscdb')).rejects.toThrow('"state.vscdb" holds no Cursor conversation: it has no composerData:* key and no chat tab with messages (workbench.panel.aichat.view.aichat.chatdata).');
    const noTabs = await database((db) => {
      db.run('CREATE TABLE ItemTable (key TEXT, value BLOB)');
      db.run('INSERT INTO ItemTable VALUES (?, ?)', ['workbench.panel.aichat.view.aichat.chatdata', '{"tabz": []}']);
      db.run('INSERT INTO ItemTable VALUES (?, ?)', ['composerData:c1', JSON.stringify({ conversation: [{ type: 1, text: 'hi' }] })]);
    });
    expect((await readCursorDatabase(noTabs, 'state.vscdb')).problems).toEqual([{ key: 'workbench.panel.aichat.view.aichat.chatdata', message: 'has no "tabs" list; left out' }]);
  });

  it('reads the workspace sample (scripts/make-cursor-workspace-vscdb.ts) as counted by hand: two tabs with 4 and 2 bubbles, an empty tab left out, the newest first', async () => {
    const store = await readCursorDatabase(readFileSync(new URL('../../public/samples/cursor/workspace/state.vscdb', import.meta.url)), 'state.vscdb');
    expect([store.problems, store.empty]).toEqual([[], 1]);
    expect(store.composers.map((c) => [c.composerId, c.name, c.document.conversation.map((bubble) => bubble.type).join('')])).toEqual([
      ['6f1c2a9e-0000-4000-8000-00000000000b', 'What does the regex /^\\s*#/ match?', '12'],
      ['6f1c2a9e-0000-4000-8000-00000000000a', 'Retry failed uploads', '1212'],
    ]);
  });
});

