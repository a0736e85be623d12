/**
 * Writes public/samples/opencode/opencode.db: the opencode storage folder sample
 * (public/samples/opencode/storage/) as opencode 1.2 and later keep it, in one SQLite database
 * (docs/formats.md, opencode's SQLite store), built with sql.js. Tables as in opencode's schema
 * (`packages/opencode/src/session/session.sql.ts`, `project/project.sql.ts`): `project`, `session`
 * (a column per field), `message` and `part` (ids and times as columns, the rest as JSON `data`),
 * `todo`, and `session_message` (`packages/core/src/session/sql.ts`): the copy of each message in
 * opencode's newer message shape that opencode writes beside the `message` rows of an older session
 * (same ids; `packages/core/src/session/message.ts`). The database holds exactly what the folder
 * holds, no more.
 *
 *   npx tsx scripts/make-opencode-db.ts [out]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import initSqlJs from 'sql.js';
import { readOpencodeFolder, type FolderFile } from '../src/core/import/opencode-folder.ts';

const FOLDER = 'public/samples/opencode/storage';
const out = process.argv[2] ?? 'public/samples/opencode/opencode.db';

function filesUnder(dir: string): FolderFile[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => ({ path: relative(dir, join(entry.parentPath, entry.name)), text: readFileSync(join(entry.parentPath, entry.name), 'utf8') }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

const { sessions, problems } = readOpencodeFolder(filesUnder(FOLDER));
if (problems.length > 0) throw new Error(`${FOLDER}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);

const SQL = await initSqlJs();
const db = new SQL.Database();
db.run(`CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text, icon_color text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer, sandboxes text NOT NULL)`);
db.run(`CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE, parent_id text,
  slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text,
  summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, revert text, permission text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer)`);
db.run(`CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)`);
db.run(`CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)`);
db.run(`CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, priority text NOT NULL,
  position integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, PRIMARY KEY (session_id, position))`);
db.run(`CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE, type text NOT NULL,
  seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)`);
db.run('CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id)');
db.run('CREATE INDEX part_message_id_id_idx ON part (message_id, id)');

const time = (record: Record<string, unknown>, key: string): number | null => {
  const value = (record.time as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'number' ? value : null;
};
const without = (record: Record<string, unknown>, ...keys: string[]) => JSON.stringify(Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key))));

/** A message in opencode's newer shape (without its id and type, which are columns), as opencode copies an older one. */
function newerShape(message: Record<string, unknown>, parts: Array<Record<string, unknown>>, created: number): { type: string; data: string } {
  const texts = parts.filter((part) => part.type === 'text').map((part) => String(part.text ?? ''));
  if (message.role === 'user') return { type: 'user', data: JSON.stringify({ text: texts.join('\n'), time: { created } }) };
  const content = parts.flatMap((part): Array<Record<string, unknown>> => {
    if (part.type === 'text' || part.type === 'reasoning') return [{ type: part.type, id: String(part.id), text: String(part.text ?? '') }];
    if (part.type !== 'tool') return [];
    const state = (part.state ?? {}) as Record<string, unknown>;
    const output = [{ type: 'text', text: String(state.output ?? state.error ?? '') }];
    return [{ type: 'tool', id: String(part.callID), name: String(part.tool), state: { status: state.status, input: state.input ?? {}, content: output, structured: {} }, time: { created } }];
  });
  const model = { id: String(message.modelID ?? ''), providerID: String(message.providerID ?? '') };
  return { type: 'assistant', data: JSON.stringify({ agent: String(message.mode ?? message.agent ?? 'build'), model, content, tokens: message.tokens, cost: message.cost, finish: message.finish, time: { created } }) };
}

const projects = new Set<string>();
for (const { document } of sessions) {
  const info = document.info;
  const created = time(info, 'created') ?? 0;
  const projectId = String(info.projectID);
  if (!projects.has(projectId)) {
    projects.add(projectId);
    db.run('INSERT INTO project VALUES (?, ?, ?, NULL, NULL, NULL, ?, ?, NULL, ?)', [projectId, String(info.directory), 'git', created, created, '[]']);
  }
  const summary = (info.summary ?? {}) as Record<string, number>;
  db.run('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, NULL, NULL, NULL, ?, ?, NULL, NULL)', [
    String(info.id), projectId, (info.parentID as string | null) ?? null, String(info.slug), String(info.directory), String(info.title), String(info.version),
    summary.additions ?? null, summary.deletions ?? null, summary.files ?? null, created, time(info, 'updated') ?? created,
  ]);
  for (const [seq, { info: message, parts }] of document.messages.entries()) {
    const at = time(message, 'created') ?? created;
    db.run('INSERT INTO message VALUES (?, ?, ?, ?, ?)', [String(message.id), String(info.id), at, time(message, 'completed') ?? at, without(message, 'id', 'sessionID')]);
    const newer = newerShape(message, parts, at);
    db.run('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)', [String(message.id), String(info.id), newer.type, seq, at, at, newer.data]);
    for (const part of parts) {
      const partAt = time(part, 'start') ?? at;
      db.run('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', [String(part.id), String(message.id), String(info.id), partAt, time(part, 'end') ?? partAt, without(part, 'id', 'sessionID', 'messageID')]);
    }
  }
}
writeFileSync(out, db.export());
db.close();
console.log(`wrote ${out}: ${sessions.length} session(s)`);
