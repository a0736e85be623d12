import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
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
    await expect(readCursorDatabase(workspace, 'state.vscdb')).rejects.toThrow('"state.vscdb" holds no Cursor conversation: it has no composerData:* key.');
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
});
