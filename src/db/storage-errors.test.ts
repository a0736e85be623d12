import 'fake-indexeddb/auto';
import Dexie, { type DBCore } from 'dexie';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { commitImport, loadEntries } from './conversations.ts';
import { FoldlabDatabase } from './schema.ts';
import { asStorageError, formatUsage, isQuotaError, storageUsage, StorageFullError } from './storage-errors.ts';

const PI = importText(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8'));
const CLAUDE = importText(readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8'));

const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

/**
 * A database whose `entries` store refuses writes once `budget` rows are stored, the way a browser
 * refuses them at its quota: the write request fails with QuotaExceededError.
 */
function limitedDatabase(budget: { rows: number }): FoldlabDatabase {
  const db = new FoldlabDatabase(`q-${Math.random()}`);
  db.use({
    stack: 'dbcore',
    name: 'quota-limit',
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request) => {
            if (name === 'entries' && (request.type === 'put' || request.type === 'add')) {
              budget.rows -= request.values.length;
              if (budget.rows < 0) return Promise.reject(quota());
            }
            return table.mutate(request);
          },
        };
      },
    }),
  });
  return db;
}

let db: FoldlabDatabase;
afterEach(async () => {
  await db?.delete();
});

describe('isQuotaError', () => {
  it('recognises the DOMException and every way Dexie 4 wraps it', () => {
    expect(isQuotaError(quota())).toBe(true);
    expect(isQuotaError(new Dexie.QuotaExceededError('full'))).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('Transaction aborted', quota()))).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('Transaction aborted', new Dexie.QuotaExceededError('full', quota())))).toBe(true);
    expect(isQuotaError(new Dexie.BulkError('1 of 5 failed', { 3: quota() } as unknown as Error[]))).toBe(true);
    expect(isQuotaError(new Error('wrapped', { cause: quota() }))).toBe(true);
    // Errors as they arrive from the worker: a plain {name, message}.
    expect(isQuotaError({ name: 'StorageFullError', message: 'Browser storage is full' })).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(isQuotaError(new Dexie.AbortError('Transaction aborted', new Dexie.ConstraintError('dup')))).toBe(false);
    expect(isQuotaError(new Dexie.AbortError('Transaction aborted'))).toBe(false);
    expect(isQuotaError(new DOMException('gone', 'InvalidStateError'))).toBe(false);
    expect(isQuotaError(new Error('QuotaExceededError in the message only'))).toBe(false);
    expect(isQuotaError(undefined)).toBe(false);
    const other = new Error('x');
    expect(asStorageError(other, 'y')).toBe(other);
    expect(asStorageError(quota(), 'importing a.jsonl')).toBeInstanceOf(StorageFullError);
  });
});

describe('storage usage', () => {
  it('reads navigator.storage.estimate and formats it', async () => {
    const usage = await storageUsage({ estimate: async () => ({ usage: 15 * 1024 * 1024, quota: 20 * 1024 * 1024 }) });
    expect(usage && formatUsage(usage)).toBe('15.0 MB of 20.0 MB (75%)');
    expect(await storageUsage({ estimate: () => Promise.reject(new Error('no')) })).toBeUndefined();
    expect(await storageUsage(undefined)).toBeUndefined();
  });
});

describe('an import that hits the quota', () => {
  it('fails as StorageFullError and stores no partial row', async () => {
    db = limitedDatabase({ rows: 200 });
    expect(CLAUDE.entries.length).toBeGreaterThan(200);
    const error = await commitImport(db, CLAUDE, { fileName: 'big.jsonl', size: 1, origin: 'file' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageFullError);
    expect((error as Error).message).toContain('importing big.jsonl');
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);
  });

  it('a re-import that hits the quota keeps the old entries, and a small import still fits', async () => {
    const budget = { rows: PI.entries.length };
    db = limitedDatabase(budget);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 1, origin: 'file' });
    budget.rows = 100;
    await expect(commitImport(db, CLAUDE, { fileName: 'big.jsonl', size: 1, origin: 'file', replaceId: row.id })).rejects.toBeInstanceOf(StorageFullError);
    expect((await db.conversations.get(row.id))?.importId).toBe(row.importId);
    expect((await loadEntries(db, row.id)).length).toBe(PI.entries.length);
    budget.rows = PI.entries.length;
    const small = await commitImport(db, PI, { fileName: 'again.jsonl', size: 1, origin: 'file' });
    expect((await loadEntries(db, small.id)).length).toBe(PI.entries.length);
    expect(await db.conversations.count()).toBe(2);
  });
});
