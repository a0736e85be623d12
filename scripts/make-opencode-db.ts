/**
 * Writes public/samples/opencode/opencode.db: the opencode storage folder sample
 * (public/samples/opencode/storage/) as opencode 1.2 and later keep it, in one SQLite database
 * (docs/formats.md, opencode's SQLite store), built with sql.js. Tables as in opencode's schema
 * (`packages/opencode/src/session/session.sql.ts`, `project/project.sql.ts`): `project`, `session`
 * (a column per field), `message` and `part` (ids and times as columns, the rest as JSON `data`),
 * `todo`. The database holds exactly what the folder holds, no more.
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
db.run('CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id)');
db.run('CREATE INDEX part_message_id_id_idx ON part (message_id, id)');

const time = (record: Record<string, unknown>, key: string): number | null => {
  const value = (record.time as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'number' ? value : null;
};
const without = (record: Record<string, unknown>, ...keys: string[]) => JSON.stringify(Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key))));

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
  for (const { info: message, parts } of document.messages) {
    const at = time(message, 'created') ?? created;
    db.run('INSERT INTO message VALUES (?, ?, ?, ?, ?)', [String(message.id), String(info.id), at, time(message, 'completed') ?? at, without(message, 'id', 'sessionID')]);
    for (const part of parts) {
      const partAt = time(part, 'start') ?? at;
      db.run('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', [String(part.id), String(message.id), String(info.id), partAt, time(part, 'end') ?? partAt, without(part, 'id', 'sessionID', 'messageID')]);
    }
  }
}
writeFileSync(out, db.export());
db.close();
console.log(`wrote ${out}: ${sessions.length} session(s)`);
