/**
 * Schema upgrades against databases built with raw IndexedDB exactly as each earlier Dexie version
 * declared them (Dexie's version n is IndexedDB's 10n), holding rows the app's own code made:
 * after the upgrade to the current version every row reads back unchanged and the new tables exist. Also: a newer
 * schema opened elsewhere closes this connection, a newer library is refused untouched, and an
 * upgrade that throws leaves the old data as it was.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrompts } from '../cli/load.ts';
import { FoldlabDatabase, SCHEMA_VERSION, UPGRADE_NOTE } from './schema.ts';
import { buildLibrary } from './test-library.ts';
import { guardSchema, type SchemaState } from './upgrade-guard.ts';

interface StoreSpec {
  keyPath: string | string[];
  indexes: Array<[name: string, keyPath: string | string[]]>;
}

/** Each version's new object stores, as its `db.version(n).stores({...})` declared them. */
const VERSIONS: Record<number, Record<string, StoreSpec>> = {
  // conversations: 'id, importedAt'; entries: '[conversationId+index], conversationId';
  // tokenCounts: '[conversationId+counter], conversationId'; settings: 'key'
  1: {
    conversations: { keyPath: 'id', indexes: [['importedAt', 'importedAt']] },
    entries: { keyPath: ['conversationId', 'index'], indexes: [['conversationId', 'conversationId']] },
    tokenCounts: { keyPath: ['conversationId', 'counter'], indexes: [['conversationId', 'conversationId']] },
    settings: { keyPath: 'key', indexes: [] },
  },
  // compactions: 'id, conversationId, [conversationId+createdAt]'; pins: '[conversationId+entryId], conversationId'
  2: {
    compactions: { keyPath: 'id', indexes: [['conversationId', 'conversationId'], ['[conversationId+createdAt]', ['conversationId', 'createdAt']]] },
    pins: { keyPath: ['conversationId', 'entryId'], indexes: [['conversationId', 'conversationId']] },
  },
  // comparisons: 'id, conversationId, [conversationId+createdAt]'; dismissedProbes: '[conversationId+probeId], conversationId'
  3: {
    comparisons: { keyPath: 'id', indexes: [['conversationId', 'conversationId'], ['[conversationId+createdAt]', ['conversationId', 'createdAt']]] },
    dismissedProbes: { keyPath: ['conversationId', 'probeId'], indexes: [['conversationId', 'conversationId']] },
  },
  // judgements: 'key'
  4: { judgements: { keyPath: 'key', indexes: [] } },
  // folds: 'id, conversationId'; foldSummaries: '[conversationId+key], conversationId';
  // bookmarks: '[conversationId+iteration], conversationId'; jobs: '&id, conversationId, kind, state, updatedAt'
  5: {
    folds: { keyPath: 'id', indexes: [['conversationId', 'conversationId']] },
    foldSummaries: { keyPath: ['conversationId', 'key'], indexes: [['conversationId', 'conversationId']] },
    bookmarks: { keyPath: ['conversationId', 'iteration'], indexes: [['conversationId', 'conversationId']] },
    jobs: { keyPath: 'id', indexes: [['conversationId', 'conversationId'], ['kind', 'kind'], ['state', 'state'], ['updatedAt', 'updatedAt']] },
  },
  // liveSessions: 'conversationId'
  6: { liveSessions: { keyPath: 'conversationId', indexes: [] } },
};

type Rows = Record<string, unknown[]>;

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

function request<T>(req: IDBRequest<T> | IDBOpenDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** A database at Dexie version `version`, created with raw IndexedDB, holding the rows of its tables. */
async function legacyDatabase(version: number, rows: Rows): Promise<string> {
  const name = `legacy-v${version}-${Math.random()}`;
  names.push(name);
  const open = indexedDB.open(name, version * 10);
  open.onupgradeneeded = () => {
    for (let v = 1; v <= version; v++) {
      for (const [table, spec] of Object.entries(VERSIONS[v]!)) {
        const store = open.result.createObjectStore(table, { keyPath: spec.keyPath });
        for (const [index, keyPath] of spec.indexes) store.createIndex(index, keyPath);
      }
    }
  };
  const idb = await request<IDBDatabase>(open);
  const tables = Object.keys(rows).filter((table) => idb.objectStoreNames.contains(table));
  const tx = idb.transaction(tables, 'readwrite');
  for (const table of tables) for (const row of rows[table]!) tx.objectStore(table).put(row);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('write failed'));
  });
  idb.close();
  return name;
}

async function dump(db: Dexie, tables: readonly string[]): Promise<Rows> {
  const out: Rows = {};
  for (const table of tables) out[table] = await db.table(table).toArray();
  return out;
}

let library: Promise<Rows> | undefined;
/** Rows of every v1-v6 table, made once by the app's own code on a fresh database. */
function realRows(): Promise<Rows> {
  library ??= (async () => {
    const db = new FoldlabDatabase(`source-${Math.random()}`);
    await buildLibrary(db, { main: readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'), pi: readFileSync('public/samples/pi/v3-small.jsonl'), prompts: loadPrompts() });
    // A finished job record, as a compaction with a model summarizer leaves (v5).
    await db.jobs.put({ id: 'j0', conversationId: 'c0', kind: 'compaction', state: 'done', updatedAt: 1 });
    // A live session's row (v6).
    await db.liveSessions.put({ conversationId: 'c0', createdAt: 1, folder: { name: 'repo', snapshot: true }, config: { model: { kind: 'settings', label: 'x' }, strategy: 'pi', options: {}, contextWindow: 1000, counter: 'chars4', gitignore: true } });
    const rows = await dump(db, Object.values(VERSIONS).flatMap((tables) => Object.keys(tables)));
    await db.delete();
    return rows;
  })();
  return library;
}

describe(`upgrading every earlier schema to v${SCHEMA_VERSION}`, () => {
  for (const version of [1, 2, 3, 4, 5, 6]) {
    it(`opens a v${version} library: every row is kept, the newer tables exist and the upgrade is noted`, async () => {
      const all = await realRows();
      const tables = Object.entries(VERSIONS).filter(([v]) => Number(v) <= version).flatMap(([, t]) => Object.keys(t));
      const rows = Object.fromEntries(tables.map((table) => [table, all[table]!]));
      for (const table of tables) expect(rows[table]!.length, table).toBeGreaterThan(0);
      const name = await legacyDatabase(version, rows);

      const db = new FoldlabDatabase(name);
      const after = await dump(db, tables);
      const settings = after.settings as Array<{ key: string }>;
      expect({ ...after, settings: settings.filter((s) => s.key !== UPGRADE_NOTE) }).toEqual(rows);
      expect((await db.settings.get(UPGRADE_NOTE))?.value).toMatchObject({ to: SCHEMA_VERSION });
      expect(db.verno).toBe(SCHEMA_VERSION);
      expect(db.backendDB().version).toBe(SCHEMA_VERSION * 10);
      // The new tables work, with the indexes the code queries.
      for (const table of ['sweeps', 'liveSessions', 'folds', 'foldSummaries', 'bookmarks', 'jobs', ...Object.keys(VERSIONS[2]!), ...Object.keys(VERSIONS[3]!), 'judgements']) {
        expect(db.backendDB().objectStoreNames.contains(table), table).toBe(true);
      }
      await db.jobs.put({ id: 'j1', conversationId: 'c', kind: 'compaction', state: 'running', updatedAt: 5 });
      expect(await db.jobs.where('state').equals('running').count()).toBe(1);
      expect(await db.jobs.where('updatedAt').above(4).count()).toBe(1);
      await expect(db.jobs.add({ id: 'j1', conversationId: 'c', kind: 'compaction', state: 'done', updatedAt: 6 })).rejects.toThrow();
      // v6: a live session's row, looked up by its conversation.
      await db.liveSessions.put({ conversationId: 'c', createdAt: 1, folder: { name: 'repo', snapshot: true }, config: { model: { kind: 'settings', label: 'x' }, strategy: 'pi', options: {}, contextWindow: 1000, counter: 'chars4', gitignore: true } });
      expect((await db.liveSessions.get('c'))?.folder.name).toBe('repo');
      // v7: saved sweeps, listed by when they were made.
      await db.sweeps.put({ id: 's1', createdAt: 7, name: 'pi sweep', strategy: 'pi', plan: { vary: ['keepRecentTokens=1000..2000:2'] }, sessions: [], counter: 'chars4', contextWindow: 1000, summarizer: 'offline', points: [], figures: [], planned: 2, cancelled: false, weights: { task: 1, constraint: 1, error: 1, artifact: 1, identifier: 1, decision: 1 }, durationMs: 1 });
      expect((await db.sweeps.orderBy('createdAt').first())?.name).toBe('pi sweep');
      // Old tables still answer through their indexes.
      const conversation = (rows.conversations as Array<{ id: string }>)[0]!;
      expect(await db.entries.where('conversationId').equals(conversation.id).count()).toBe((rows.entries as Array<{ conversationId: string }>).filter((e) => e.conversationId === conversation.id).length);
      db.close();
    });
  }
});

describe('a schema change while the library is open', () => {
  it('an upgrade from another tab closes this connection for good: writes fail, nothing reopens', async () => {
    const name = `open-${Math.random()}`;
    names.push(name);
    const page = new FoldlabDatabase(name);
    const worker = new FoldlabDatabase(name);
    const states: SchemaState[] = [];
    guardSchema(page, (state) => states.push(state));
    guardSchema(worker, (state) => states.push(state));
    await page.settings.put({ key: 'a', value: 1 });
    expect(await worker.settings.get('a')).toEqual({ key: 'a', value: 1 });

    // A newer Foldlab (schema v6) opens the same library: it is not blocked by our two connections.
    const newer = indexedDB.open(name, (SCHEMA_VERSION + 1) * 10);
    newer.onupgradeneeded = () => newer.result.createObjectStore('v6table', { keyPath: 'id' });
    (await request<IDBDatabase>(newer)).close();

    expect(states.map((s) => s.kind)).toEqual(['updated-elsewhere', 'updated-elsewhere']);
    expect(states[0]!.kind === 'updated-elsewhere' && states[0]!.message).toBe('Foldlab was updated in another tab — reload.');
    await expect(page.settings.put({ key: 'b', value: 2 })).rejects.toThrow(/closed/i);
    await expect(worker.conversations.count()).rejects.toThrow(/closed/i);
  });

  it('a library written by a newer Foldlab is refused and nothing in it is changed', async () => {
    const name = `newer-${Math.random()}`;
    names.push(name);
    const rows = await realRows();
    const current = new FoldlabDatabase(name);
    await current.conversations.bulkPut(rows.conversations as never[]);
    await current.settings.put({ key: 'kept', value: true });
    current.close();
    const newer = indexedDB.open(name, (SCHEMA_VERSION + 1) * 10);
    newer.onupgradeneeded = () => newer.result.createObjectStore('v6table', { keyPath: 'id' }).put({ id: 'x', payload: 'from v6' });
    (await request<IDBDatabase>(newer)).close();

    const old = new FoldlabDatabase(name);
    const states: SchemaState[] = [];
    guardSchema(old, (state) => states.push(state));
    await expect(old.conversations.count()).rejects.toThrow(`newer version of Foldlab (schema v${SCHEMA_VERSION + 1}; this page knows v${SCHEMA_VERSION})`);
    expect(states.map((s) => s.kind)).toEqual(['newer']);

    const raw = await request<IDBDatabase>(indexedDB.open(name));
    expect(raw.version).toBe((SCHEMA_VERSION + 1) * 10);
    expect([...raw.objectStoreNames].sort()).toContain('v6table');
    const tx = raw.transaction(['conversations', 'settings', 'v6table']);
    expect(await request(tx.objectStore('conversations').count())).toBe(rows.conversations!.length);
    expect(await request(tx.objectStore('settings').get('kept'))).toEqual({ key: 'kept', value: true });
    expect(await request(tx.objectStore('v6table').get('x'))).toEqual({ id: 'x', payload: 'from v6' });
    raw.close();
  });

  it('an upgrade that throws leaves the old data intact at the old version', async () => {
    const all = await realRows();
    const rows = { conversations: all.conversations!, entries: all.entries!, settings: all.settings! };
    const name = await legacyDatabase(4, rows);

    /** The v5 schema plus a v6 whose upgrade fails halfway, after changing a row. */
    class Broken extends FoldlabDatabase {
      constructor() {
        super(name);
        this.version(SCHEMA_VERSION + 1).stores({ extra: 'id' }).upgrade(async (tx) => {
          await tx.table('conversations').toCollection().modify({ title: 'changed by the upgrade' });
          throw new Error('upgrade failed halfway');
        });
      }
    }
    const broken = new Broken();
    await expect(broken.conversations.count()).rejects.toThrow(/upgrade failed halfway/);
    broken.close();

    const raw = await request<IDBDatabase>(indexedDB.open(name));
    expect(raw.version).toBe(40);
    expect(raw.objectStoreNames.contains('folds')).toBe(false);
    raw.close();
    const db = new FoldlabDatabase(name);
    expect(await dump(db, Object.keys(rows))).toEqual(expect.objectContaining({ conversations: rows.conversations, entries: rows.entries }));
    db.close();
  });
});
