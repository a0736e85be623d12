import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { readOpencodeFolder } from '../core/import/opencode-folder.ts';
import { importText } from '../core/import/run.ts';
import type { ImportResult } from '../core/import/types.ts';
import { linkReport } from '../core/journal/link.ts';
import { readAgentStore, storeKind } from './agent-store.ts';
import { readOpencodeDatabase } from './opencode-db.ts';

const SAMPLE = readFileSync(new URL('../../public/samples/opencode/opencode.db', import.meta.url));
const CURSOR = readFileSync(new URL('../../public/samples/cursor/state.vscdb', import.meta.url));
const FOLDER = new URL('../../public/samples/opencode/storage', import.meta.url).pathname;

async function database(build: (db: import('sql.js').Database) => void): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  build(db);
  const bytes = db.export();
  db.close();
  return bytes;
}

/** opencode's tables, as its schema declares them (only the columns read here and the ones they need). */
function opencodeTables(db: import('sql.js').Database): void {
  db.run('CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, permission text, time_created integer NOT NULL, time_updated integer NOT NULL)');
  db.run('CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)');
  db.run('CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)');
}

const read = (document: unknown, id: string): ImportResult => importText(JSON.stringify(document, null, 1), { format: 'opencode', fileName: `${id}.json` });

/**
 * What the sample session holds, counted by hand from public/samples/opencode/storage: 2 user
 * messages ("Step 1", "Step 2"); the first assistant message (aborted) has reasoning, then its
 * step-finish (120 in, 16 out), then a text and the bash call with its result; the second says "Ok".
 */
function expectSampleSession(result: ImportResult): void {
  expect(result.format).toBe('opencode');
  expect(result.meta).toMatchObject({ sessionId: 's_stage0_large', title: 'OpenCode Large', version: '1.3.17', model: 'gpt-4o-mini' });
  expect(result.entries.map((entry) => entry.role).join(' ')).toBe('user assistant assistant tool user assistant');
  expect(linkReport(result.entries)).toEqual({ toolCalls: 1, toolResults: 1, orphanToolCalls: 0, orphanToolResults: 0 });
  expect(result.entries.filter((entry) => entry.usage).map((entry) => entry.usage)).toEqual([{ input: 120, output: 16 }]);
  expect(result.entries[1]!.blocks).toEqual([{ type: 'thinking', text: 'Investigating failing command.' }]);
  expect(result.entries[3]!.blocks[0]).toMatchObject({ type: 'tool_result', callId: 'call_large_1', content: [{ type: 'text', text: 'ls: /non-existent-directory: No such file or directory\n' }] });
  expect(result.entries.filter((entry) => entry.flags?.aborted).length).toBe(2);
  expect(result.issues.map((issue) => issue.message)).toEqual([expect.stringMatching(/^assistant part type "compaction" \(first in message m_assistant_large_1\) is not read/)]);
}

describe("opencode's SQLite store (opencode.db)", () => {
  it('reads the sample store as the storage folder sample reads: the same session, entries, calls, usage and the one part it does not read', async () => {
    const store = await readOpencodeDatabase(SAMPLE, 'opencode.db');
    expect(store.problems).toEqual([]);
    expect(store.sessions.map((s) => [s.sessionId, s.name, s.document.messages.length, s.document.messages.reduce((n, m) => n + m.parts.length, 0)])).toEqual([['s_stage0_large', 'OpenCode Large', 4, 11]]);
    expectSampleSession(read(store.sessions[0]!.document, 's_stage0_large'));
    const files = readdirSync(FOLDER, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => ({ path: relative(FOLDER, join(e.parentPath, e.name)), text: readFileSync(join(e.parentPath, e.name), 'utf8') }));
    expectSampleSession(read(readOpencodeFolder(files).sessions[0]!.document, 's_stage0_large'));
  });

  it('is told from a Cursor chat store by its tables, whatever the file is called', async () => {
    expect((await readAgentStore(SAMPLE, 'state.vscdb')).kind).toBe('opencode');
    expect((await readAgentStore(CURSOR, 'opencode.db')).kind).toBe('cursor');
    expect(storeKind(['project', 'session', 'message', 'part'])).toBe('opencode');
    expect(storeKind(['ItemTable', 'cursorDiskKV'])).toBe('cursor');
    expect(storeKind(['notes'])).toBeUndefined();
  });

  it('links subagent sessions to the session that started them and the task call that did', async () => {
    const bytes = await database((db) => {
      opencodeTables(db);
      db.run("INSERT INTO session VALUES ('ses_main', 'p', NULL, 'main', '/w', 'Fix it', '1.2.10', NULL, 1, 9), ('ses_sub', 'p', 'ses_main', 'sub', '/w', 'Find callers (@explore subagent)', '1.2.10', '[{\"permission\":\"x\"}]', 3, 4)");
      const msg = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
      msg.run(['msg_1', 'ses_main', 1, 1, JSON.stringify({ role: 'user', time: { created: 1 } })]);
      msg.run(['msg_2', 'ses_main', 2, 5, JSON.stringify({ role: 'assistant', modelID: 'claude-sonnet-4', tokens: { input: 100, output: 20, reasoning: 0, cache: { read: 900, write: 0 } } })]);
      msg.run(['msg_3', 'ses_sub', 3, 3, JSON.stringify({ role: 'user' })]);
      msg.run(['msg_4', 'ses_sub', 4, 4, JSON.stringify({ role: 'assistant', modelID: 'claude-haiku-4' })]);
      msg.free();
      const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)');
      part.run(['prt_1', 'msg_1', 'ses_main', JSON.stringify({ type: 'text', text: 'Fix parse()' })]);
      part.run(['prt_2', 'msg_2', 'ses_main', JSON.stringify({ type: 'reasoning', text: 'Who calls it?' })]);
      part.run(['prt_3', 'msg_2', 'ses_main', JSON.stringify({ type: 'tool', callID: 'call_1', tool: 'task', state: { status: 'completed', input: { prompt: 'find callers' }, output: 'cli.ts', metadata: { sessionId: 'ses_sub' }, time: { start: 2, end: 4 } } })]);
      part.run(['prt_4', 'msg_2', 'ses_main', JSON.stringify({ type: 'step-finish', tokens: { input: 100, output: 20, reasoning: 0, cache: { read: 900, write: 0 } } })]);
      part.run(['prt_5', 'msg_3', 'ses_sub', JSON.stringify({ type: 'text', text: 'find callers' })]);
      part.run(['prt_6', 'msg_4', 'ses_sub', JSON.stringify({ type: 'text', text: 'cli.ts' })]);
      db.run('CREATE TABLE session_message (id text PRIMARY KEY, session_id text, type text, seq integer, time_created integer, time_updated integer, data text)');
      // opencode's copies of the main session's messages (same ids), one row beside them, and a session kept only here.
      db.run("INSERT INTO session_message VALUES ('msg_1', 'ses_main', 'user', 0, 1, 1, '{\"text\":\"Fix parse()\",\"time\":{\"created\":1}}'), ('msg_x', 'ses_main', 'user', 1, 9, 9, '{\"text\":\"later\"}')");
      db.run("INSERT INTO session VALUES ('ses_new', 'p', NULL, 'new', '/w', 'Newer store', '1.4.0', NULL, 20, 30)");
      db.run("INSERT INTO session_message VALUES ('sm_a', 'ses_new', 'user', 0, 20, 20, '{\"text\":\"hello\",\"time\":{\"created\":20}}'), ('sm_b', 'ses_new', 'assistant', 1, 21, 21, '{\"agent\":\"build\",\"model\":{\"id\":\"gpt-5\",\"providerID\":\"openai\"},\"content\":[{\"type\":\"text\",\"id\":\"t1\",\"text\":\"hi\"}],\"tokens\":{\"input\":7,\"output\":2,\"reasoning\":0,\"cache\":{\"read\":0,\"write\":0}},\"time\":{\"created\":21}}')");
    });
    const store = await readOpencodeDatabase(bytes, 'opencode.db');
    expect(store.problems).toEqual([{ key: 'session_message/ses_main', message: expect.stringMatching(/^1 row beside the session's message rows/) }]);
    expect(store.sessions.map((s) => [s.sessionId, s.parentId])).toEqual([['ses_main', undefined], ['ses_new', undefined], ['ses_sub', 'ses_main']]);
    const newer = read(store.sessions[1]!.document, 'ses_new');
    expect(newer.entries.map((entry) => [entry.role, entry.id])).toEqual([['user', 'sm_a'], ['assistant', 'sm_b']]);
    expect(newer.entries[1]!.usage).toEqual({ input: 7, output: 2 });
    const main = read(store.sessions[0]!.document, 'ses_main');
    expect(main.meta.subagentCalls).toEqual({ ses_sub: 'call_1' });
    expect(main.entries.map((entry) => entry.role).join(' ')).toBe('user assistant tool');
    expect(main.entries[1]!.blocks.map((block) => block.type)).toEqual(['thinking', 'tool_call']);
    expect(main.entries[1]!.usage).toEqual({ input: 1000, output: 20, cacheRead: 900 });
    expect(read(store.sessions[2]!.document, 'ses_sub').meta.subagent).toEqual({ parentSessionId: 'ses_main', agentId: 'ses_sub' });
  });

  it("reads a session_message table of the earlier layout, without its seq column, in time order", async () => {
    const bytes = await database((db) => {
      opencodeTables(db);
      db.run("INSERT INTO session VALUES ('ses_new', 'p', NULL, 'new', '/w', 'Newer store', '1.3.0', NULL, 1, 2)");
      db.run('CREATE TABLE session_message (id text PRIMARY KEY, session_id text, type text, time_created integer, time_updated integer, data text)');
      db.run(`INSERT INTO session_message VALUES ('sm_2', 'ses_new', 'assistant', 6, 6, '{"content":[{"type":"text","id":"t","text":"ok"}]}'), ('sm_1', 'ses_new', 'user', 5, 5, '{"text":"go"}')`);
    });
    const store = await readOpencodeDatabase(bytes, 'opencode.db');
    expect(store.problems).toEqual([]);
    expect(read(store.sessions[0]!.document, 'ses_new').entries.map((entry) => [entry.role, entry.id])).toEqual([['user', 'sm_1'], ['assistant', 'sm_2']]);
  });

  it('refuses a cut-off or damaged file, another program\'s database, an unknown layout and a store without conversations, each saying why', async () => {
    await expect(readOpencodeDatabase(SAMPLE.subarray(0, 6000), 'opencode.db')).rejects.toThrow(/^"opencode\.db" (is not a readable SQLite database|: the \w+ table could not be read).*Copy opencode\.db again with opencode closed/);
    const garbage = new Uint8Array(8192).fill(7);
    garbage.set(SAMPLE.subarray(0, 100));
    await expect(readOpencodeDatabase(garbage, 'opencode.db')).rejects.toThrow(/"opencode\.db" .*(damaged|malformed)/);
    const other = await database((db) => db.run('CREATE TABLE notes (id INTEGER, body TEXT)'));
    await expect(readOpencodeDatabase(other, 'notes.db')).rejects.toThrow('"notes.db" is an SQLite database but not opencode\'s opencode.db: it has no session, message and part tables (its tables: notes).');
    await expect(readAgentStore(other, 'notes.db')).rejects.toThrow('"notes.db" is an SQLite database but neither Cursor\'s state.vscdb (cursorDiskKV, ItemTable tables) nor opencode\'s opencode.db (session, message, part tables); its tables: notes.');
    const odd = await database((db) => {
      db.run('CREATE TABLE session (id text)');
      db.run('CREATE TABLE message (id text, session_id text, body text)');
      db.run('CREATE TABLE part (id text, message_id text, data text)');
    });
    await expect(readOpencodeDatabase(odd, 'opencode.db')).rejects.toThrow('"opencode.db": opencode\'s message table has no data column; this opencode.db is of a version Foldlab does not read.');
    const oddNewer = await database((db) => {
      opencodeTables(db);
      db.run('CREATE TABLE session_message (id text, session_id text, body text)');
    });
    await expect(readOpencodeDatabase(oddNewer, 'opencode.db')).rejects.toThrow('"opencode.db": opencode\'s session_message table has no type, data column; this opencode.db is of a version Foldlab does not read.');
    const empty = await database(opencodeTables);
    await expect(readOpencodeDatabase(empty, 'opencode.db')).rejects.toThrow('"opencode.db" holds no opencode conversation: its session table is empty.');
    await expect(readOpencodeDatabase(SAMPLE, 'opencode.db', { maxBytes: 10 * 1024 })).rejects.toThrow('"opencode.db" is 0.1 MiB; Foldlab reads opencode stores up to 0.0 MiB (the whole file is held in memory while it is read).');
  });
});
