import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { findEvalInputs } from './eval-files.ts';
import { importFile } from './load.ts';

const STORE = resolve(import.meta.dirname, '../../public/samples/cursor/state.vscdb');
const MAIN = 'a1b2c3d4-0000-4000-8000-000000000001';

describe('a Cursor chat store on the command line', () => {
  it('reads the conversation named after "#", its sub-composer as a subagent thread', async () => {
    const result = await importFile(`${STORE}#${MAIN}`);
    expect(result.format).toBe('cursor');
    expect(result.meta.title).toBe('Fix the date parser');
    expect(result.entries).toHaveLength(12);
    expect(result.threads?.map((thread) => [thread.meta.title, thread.meta.subagent?.parentSessionId, thread.entries.length])).toEqual([['Find callers of parse()', MAIN, 4]]);
  });

  it('refuses a store of several conversations by listing how to read each, and an unknown id', async () => {
    await expect(importFile(STORE)).rejects.toThrow(`"state.vscdb" holds 2 Cursor conversations; the command line reads one: pass "${STORE}#${MAIN}" (Fix the date parser), "${STORE}#a1b2c3d4-0000-4000-8000-000000000003" (Explain the build script).`);
    await expect(importFile(`${STORE}#nope`)).rejects.toThrow(/^"state\.vscdb" has no conversation with composer id "nope"; it has 3: /);
  });

  it('links a Cursor subagent transcript to its session by its folder', async () => {
    const dir = resolve(import.meta.dirname, '../../public/samples/cursor/agent-transcripts');
    const parent = await importFile(`${dir}/parent.jsonl`);
    const child = await importFile(`${dir}/parent/subagents/child.jsonl`);
    expect(parent.meta.sessionId).toBe('parent');
    expect(parent.meta.subagent).toBeUndefined();
    expect(child.meta).toMatchObject({ sessionId: 'child', subagent: { parentSessionId: 'parent', agentId: 'child' } });
  });

  it('is an input of eval as a file or one of its conversations', () => {
    expect(findEvalInputs([STORE, `${STORE}#${MAIN}`]).files).toEqual([STORE, `${STORE}#${MAIN}`]);
    expect(() => findEvalInputs([`${STORE}.missing#${MAIN}`])).toThrow(/ENOENT/);
  });
});

const OPENCODE = resolve(import.meta.dirname, '../../public/samples/opencode/opencode.db');

/** An opencode.db of two sessions started by the user, each with one message of one text part. */
async function twoSessions(): Promise<string> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run('CREATE TABLE session (id text PRIMARY KEY, parent_id text, title text, time_created integer)');
  db.run('CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, data text)');
  db.run('CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, data text)');
  for (const id of ['ses_a', 'ses_b']) {
    db.run('INSERT INTO session VALUES (?, NULL, ?, 1)', [id, `Title ${id}`]);
    db.run('INSERT INTO message VALUES (?, ?, 1, ?)', [`msg_${id}`, id, '{"role":"user"}']);
    db.run('INSERT INTO part VALUES (?, ?, ?, ?)', [`prt_${id}`, `msg_${id}`, id, JSON.stringify({ type: 'text', text: `hello from ${id}` })]);
  }
  const file = join(mkdtempSync(join(tmpdir(), 'foldlab-opencode-db-')), 'opencode.db');
  writeFileSync(file, db.export());
  db.close();
  return file;
}

describe("opencode's SQLite store on the command line", () => {
  it('reads the sample opencode.db as its one session, as the storage folder reads', async () => {
    for (const path of [OPENCODE, `${OPENCODE}#s_stage0_large`]) {
      const result = await importFile(path);
      expect(result).toMatchObject({ format: 'opencode', meta: { sessionId: 's_stage0_large', title: 'OpenCode Large' } });
      expect(result.entries.map((entry) => entry.role).join(' ')).toBe('user assistant assistant tool user assistant');
    }
    expect(findEvalInputs([OPENCODE]).files).toEqual([OPENCODE]);
  });

  it('refuses a store of several sessions by listing how to read each, and reads the one named after "#"', async () => {
    const file = await twoSessions();
    await expect(importFile(file)).rejects.toThrow(`"opencode.db" holds 2 opencode sessions; the command line reads one: pass "${file}#ses_a" (Title ses_a), "${file}#ses_b" (Title ses_b).`);
    await expect(importFile(`${file}#ses_x`)).rejects.toThrow(`"opencode.db" has no opencode session with id "ses_x"; it has 2: "${file}#ses_a" (Title ses_a), "${file}#ses_b" (Title ses_b).`);
    const b = await importFile(`${file}#ses_b`);
    expect(b.entries.map((entry) => entry.blocks)).toEqual([[{ type: 'text', text: 'hello from ses_b' }]]);
  });
});
