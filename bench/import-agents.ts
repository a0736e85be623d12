/**
 * Import throughput per agent format (part of section 2): each JSONL sample repeated with fresh ids
 * into a ~200 MB file, then streamed through ImportSession in 1 MiB chunks as the CLI reads it. The
 * longest single push is the longest the worker is busy between two progress messages, so it is the
 * figure that says whether the page stays responsive. Then opencode's SQLite store: the sample
 * `opencode.db`'s session copied with fresh ids into a store of ~95 MB, read whole (as the page's
 * store reader does in its worker) and each session imported.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { importText, ImportSession } from '../src/core/import/run.ts';
import { readOpencodeDatabase } from '../src/sqlite/opencode-db.ts';
import { duration, fmt, mb, printTable } from './report.ts';

/** Size of each generated file. Default 200,000,000 (`BENCH_AGENT_BYTES` overrides). Unit: bytes (approximate). */
export const AGENT_IMPORT_BYTES = Number(process.env.BENCH_AGENT_BYTES ?? 200_000_000);

/** The JSONL samples measured, one per line-based agent importer. */
export const AGENT_SAMPLES: ReadonlyArray<{ format: string; path: string }> = [
  { format: 'copilot-cli', path: 'public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl' },
  { format: 'droid (stream-json)', path: 'public/samples/droid/exec-rc-claude.jsonl' },
  { format: 'droid (session store)', path: 'public/samples/droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' },
  { format: 'kimi (wire)', path: 'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/wire.jsonl' },
  { format: 'kimi-code (main agent wire)', path: 'public/samples/kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b/agents/main/wire.jsonl' },
  { format: 'cursor (agent transcript)', path: 'public/samples/cursor/large.jsonl' },
  { format: 'gemini-cli (JSONL)', path: 'public/samples/gemini-cli/jsonl_v040.jsonl' },
];

/** Keys whose values are ids: suffixed per copy so every copy's entries and calls stay distinct. */
const ID_KEYS = new Set(['id', 'parentId', 'uuid', 'parentUuid', 'stepUuid', 'toolCallId', 'tool_call_id', 'tool_use_id', 'call_id', 'messageId', 'apiCallId', 'parentToolCallId', 'parent_tool_call_id', 'agent_id']);

function withSuffix(value: unknown, suffix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withSuffix(item, suffix));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, ID_KEYS.has(key) && typeof inner === 'string' ? `${inner}~${suffix}` : withSuffix(inner, suffix)]));
}

/** Writes copies of the sample's lines (copy 0 as it is) until the file reaches `bytes`. */
async function writeRepeated(sample: string, path: string, bytes: number): Promise<number> {
  const lines = readFileSync(sample, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown);
  const out = createWriteStream(path);
  let written = 0;
  for (let copy = 0; written < bytes; copy++) {
    const text = `${lines.map((line) => JSON.stringify(copy === 0 ? line : withSuffix(line, String(copy)))).join('\n')}\n`;
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

export async function agentImportTable(samples: ReadonlyArray<{ format: string; path: string }> = AGENT_SAMPLES): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-bench-agents-'));
  const rows: string[][] = [];
  try {
    // `BENCH_AGENTS=kimi-code,droid` measures only the samples whose name starts with one of these.
    const only = process.env.BENCH_AGENTS?.split(',').map((name) => name.trim()).filter(Boolean);
    for (const sample of samples.filter((one) => !only || only.some((name) => one.format.startsWith(name)))) {
      const path = join(dir, `${sample.format}.jsonl`);
      const bytes = await writeRepeated(sample.path, path, AGENT_IMPORT_BYTES);
      const session = new ImportSession({ fileName: `${sample.format}.jsonl`, size: bytes });
      let longest = 0;
      const start = performance.now();
      for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
        const pushed = performance.now();
        session.push(chunk as Buffer);
        longest = Math.max(longest, performance.now() - pushed);
      }
      const finishing = performance.now();
      const result = session.finish();
      const end = performance.now();
      rows.push([
        sample.format, result.format, mb(bytes), fmt(result.entries.length), fmt(result.issueCount ?? 0),
        duration(end - start), fmt(bytes / 1e6 / ((end - start) / 1000)), duration(longest), duration(end - finishing),
      ]);
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log();
  printTable(['sample', 'read as', 'file', 'entries', 'issues', 'import', 'MB/s', 'longest push', 'finish'], rows);
}

/**
 * JSON `data` written into the generated opencode.db (the file is about 2.4 times it, ~95 MB, and
 * sql.js holds about twice the file in memory). Default 40,000,000 (`BENCH_OPENCODE_DB_BYTES`
 * overrides). Unit: bytes (approximate).
 */
export const OPENCODE_DB_BYTES = Number(process.env.BENCH_OPENCODE_DB_BYTES ?? 40_000_000);

/** The sample store's session copied with suffixed ids until the rows' data reach `bytes`: the file's bytes and its sessions. */
async function opencodeStoreOf(bytes: number): Promise<{ file: Uint8Array; sessions: number }> {
  const SQL = await initSqlJs();
  const sample = new SQL.Database(readFileSync('public/samples/opencode/opencode.db'));
  const db = new SQL.Database();
  for (const [sql] of sample.exec("SELECT sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL")[0]!.values) db.run(String(sql));
  const rows = (table: string) => sample.exec(`SELECT * FROM ${table}`)[0]?.values ?? [];
  const [projects, sessions, messages, parts] = ['project', 'session', 'message', 'part'].map(rows) as [unknown[][], unknown[][], unknown[][], unknown[][]];
  sample.close();
  for (const project of projects) db.run(`INSERT INTO project VALUES (${project.map(() => '?').join(', ')})`, project as never);
  let written = 0;
  let copies = 0;
  db.run('BEGIN');
  for (; written < bytes; copies++) {
    const id = (value: unknown) => `${String(value)}~${copies}`;
    for (const session of sessions) db.run(`INSERT INTO session VALUES (${session.map(() => '?').join(', ')})`, [id(session[0]), ...session.slice(1)] as never);
    for (const [messageId, sessionId, created, updated, data] of messages) {
      db.run('INSERT INTO message VALUES (?, ?, ?, ?, ?)', [id(messageId), id(sessionId), created, updated, data] as never);
      written += String(data).length;
    }
    for (const [partId, messageId, sessionId, created, updated, data] of parts) {
      db.run('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', [id(partId), id(messageId), id(sessionId), created, updated, data] as never);
      written += String(data).length;
    }
  }
  db.run('COMMIT');
  const file = db.export();
  db.close();
  return { file, sessions: copies * sessions.length };
}

export async function opencodeStoreTable(): Promise<void> {
  const { file, sessions } = await opencodeStoreOf(OPENCODE_DB_BYTES);
  const start = performance.now();
  const store = await readOpencodeDatabase(file, 'opencode.db');
  const read = performance.now();
  let entries = 0;
  let longest = 0;
  for (const session of store.sessions) {
    const one = performance.now();
    entries += importText(JSON.stringify(session.document, null, 1), { format: 'opencode', fileName: `${session.sessionId}.json` }).entries.length;
    longest = Math.max(longest, performance.now() - one);
  }
  const end = performance.now();
  console.log();
  printTable(['store', 'file', 'sessions', 'entries', 'read rows', 'import sessions', 'longest session', 'MB/s'], [[
    'opencode.db', mb(file.byteLength), fmt(sessions), fmt(entries), duration(read - start), duration(end - read), duration(longest), fmt(file.byteLength / 1e6 / ((end - start) / 1000)),
  ]]);
}
