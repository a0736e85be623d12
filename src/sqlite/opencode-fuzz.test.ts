/**
 * Import fuzzing over the rows of the opencode.db sample, as the Cursor store fuzz does for its
 * bubbles: message and part rows deleted, their JSON `data` replaced by other values or text that
 * is no JSON, keys removed or given values of another type. Reading the rows never throws, names
 * each row it leaves out by table and id, and each session imports as opencode with every entry of
 * a message whose row and parts were left untouched (or, with none left, is refused by the import).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { isRecord } from '../core/import/builder.ts';
import { readOpencodeStore, type DataRow, type SessionRow } from '../core/import/opencode-store.ts';
import { importText } from '../core/import/run.ts';
import { ImportFormatError } from '../core/import/types.ts';

const SQL = await initSqlJs();
const db = new SQL.Database(readFileSync(new URL('../../public/samples/opencode/opencode.db', import.meta.url)));
const all = (sql: string) => db.exec(sql)[0]?.values ?? [];
const sessions: SessionRow[] = all('SELECT id, parent_id, title, version, time_created FROM session').map(([id, parent_id, title, version, time_created]) => ({ id, parent_id, title, version, time_created }) as SessionRow);
const messages: DataRow[] = all('SELECT id, session_id, time_created, data FROM message').map(([id, sessionId, timeCreated, data]) => ({ id: String(id), sessionId: String(sessionId), timeCreated: Number(timeCreated), data: String(data) }));
const parts: DataRow[] = all('SELECT id, session_id, message_id, time_created, data FROM part').map(([id, sessionId, messageId, timeCreated, data]) => ({ id: String(id), sessionId: String(sessionId), messageId: String(messageId), timeCreated: Number(timeCreated), data: String(data) }));
db.close();

type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'replace'; at: number; text: string }
  | { op: 'drop-key'; at: number; key: number }
  | { op: 'retype-key'; at: number; key: number; value: unknown };
const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), text: fc.oneof(junk.map((value) => JSON.stringify(value)), fc.constantFrom('{"role":"user"', '{"type":', '', 'not json')) }),
  fc.record({ op: fc.constant('drop-key' as const), at: fc.nat(), key: fc.nat() }),
  fc.record({ op: fc.constant('retype-key' as const), at: fc.nat(), key: fc.nat(), value: junk }),
);

/** The entries the untouched sample makes, by the message they come from. */
const untouched = readOpencodeStore({ sessions, messages, parts }).sessions.map((session) => importText(JSON.stringify(session.document, null, 1)));
const entryIds = new Set(untouched.flatMap((result) => result.entries.map((entry) => entry.id)));
const idsOf = (messageId: string) => [...entryIds].filter((id) => id === messageId || id.startsWith(`${messageId}.`) || id.startsWith(`${messageId}/`));

function mutate(rows: DataRow[], mutations: Mutation[]): { rows: DataRow[]; touched: Set<string> } {
  const out = rows.map((row) => ({ ...row }));
  const touched = new Set<string>();
  for (const m of mutations) {
    if (out.length === 0) break;
    const at = m.at % out.length;
    const row = out[at]!;
    touched.add(row.id);
    if (m.op === 'delete') out.splice(at, 1);
    else if (m.op === 'replace') row.data = m.text;
    else {
      let value: unknown;
      try {
        value = JSON.parse(row.data);
      } catch {
        continue;
      }
      if (!isRecord(value)) continue;
      const key = Object.keys(value)[m.key % Math.max(1, Object.keys(value).length)];
      if (key === undefined) continue;
      if (m.op === 'drop-key') delete value[key];
      else value[key] = m.value;
      row.data = JSON.stringify(value);
    }
  }
  return { rows: out, touched };
}

describe('opencode store import fuzzing over the opencode.db sample', () => {
  it('never throws, names each row it leaves out, keeps the format and every untouched message', () => {
    expect(untouched.map((result) => result.entries.length)).toEqual([6]);
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 5 }), fc.array(mutation, { maxLength: 5 }), (messageMutations, partMutations) => {
        const m = mutate(messages, messageMutations);
        const p = mutate(parts, partMutations);
        const store = readOpencodeStore({ sessions, messages: m.rows, parts: p.rows });
        for (const problem of store.problems) expect(problem.key).toMatch(/^(message|part)\/\S+$/);
        for (const problem of store.problems) expect([...m.touched, ...p.touched, ...[...m.touched].flatMap((id) => parts.filter((part) => part.messageId === id).map((part) => part.id))]).toContain(problem.key.split('/')[1]);
        const ids = new Set<string>();
        for (const session of store.sessions) {
          let result;
          try {
            result = importText(JSON.stringify(session.document, null, 1));
          } catch (error) {
            // Every message left out or empty: the import's own refusal, nothing half-read.
            expect(error).toBeInstanceOf(ImportFormatError);
            expect((error as Error).message).toMatch(/holds no conversation entries/);
            continue;
          }
          expect(result.format).toBe('opencode');
          for (const entry of result.entries) ids.add(entry.id);
        }
        for (const message of messages) {
          const own = parts.filter((part) => part.messageId === message.id);
          if (m.touched.has(message.id) || own.some((part) => p.touched.has(part.id))) continue;
          for (const id of idsOf(message.id)) expect(ids.has(id), id).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  });
});
