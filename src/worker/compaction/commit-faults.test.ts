/**
 * A fault inside the transactions that store a compaction run and a fold view: the write already
 * made in the transaction is rolled back, nothing half-stored remains, and the job (a run) is
 * marked failed with a message that says so.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { jobsTable } from '../../db/jobs.ts';
import { storeFold } from '../../db/folds.ts';
import type { FoldRow } from '../../db/schema.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import type { CompactRequest } from '../engine/protocol.ts';
import { ResumableCompactions } from './resumable-compaction.ts';
import { importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();

/** Makes `table.method` do its write, then fail before the transaction commits; returns the rows the table held just before the failure. */
function failAfterWrite<T extends { count: () => Promise<number> }>(table: T, method: keyof T & string, message: string): { rowsAtFault?: number } {
  const seen: { rowsAtFault?: number } = {};
  const original = (table[method] as (...args: unknown[]) => Promise<unknown>).bind(table);
  (table as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    await original(...args);
    seen.rowsAtFault = await table.count();
    throw new Error(message);
  };
  return seen;
}

describe('a fault inside the run commit', () => {
  it('rolls the run back and marks the job failed, saying nothing was stored', async () => {
    const { db, counts, outcome } = await openSample();
    const jobs = new CompactionJobs(db, counts, { model: () => createOfflineSummarizer() });
    const resumable = new ResumableCompactions(db, (request, signal, onProgress: () => void) => jobs.compact(request, signal, onProgress), undefined);
    const fault = failAfterWrite(db.compactions, 'add', 'disk I/O error');
    const request: CompactRequest = { jobId: 'j', conversationId: outcome.conversation.id, strategy: 'pi', options: {}, counter: 'chars4', contextWindow: 200_000, summarizer: 'model', now: 1_800_000_000_000 };
    const error = await resumable.run(request, new AbortController().signal, () => undefined, () => undefined).then(() => undefined, (e: unknown) => e);
    const message = 'The compaction run could not be stored (disk I/O error): nothing was stored, the library is as it was before.';
    expect((error as Error).message).toBe(message);
    // The add happened inside the transaction; the failure after it undid it.
    expect(fault.rowsAtFault).toBe(1);
    expect(await db.compactions.count()).toBe(0);
    const records = await jobsTable(db)!.toArray();
    expect(records.map((record) => [record.kind, record.state, record.error])).toEqual([['compaction', 'failed', message]]);
    expect(await db.conversations.get(outcome.conversation.id)).toBeDefined();
  });
});

describe('a fault inside the fold commit', () => {
  it('rolls back the removal of stale views with the failed write: the library keeps what it had', async () => {
    const { db, outcome } = await openSample();
    const conversation = (await db.conversations.get(outcome.conversation.id))!;
    const row = (id: string, importId: string): FoldRow => ({ id, conversationId: conversation.id, importId, createdAt: 1, provenance: {} as FoldRow['provenance'], view: {} as FoldRow['view'] });
    await db.folds.put(row('stale', 'an-earlier-import'));
    const fault = failAfterWrite(db.folds, 'put', 'disk I/O error');
    await expect(storeFold(db, row('new', conversation.importId))).rejects.toThrow('disk I/O error');
    // Inside the transaction the stale view was gone and the new one written: 1 row.
    expect(fault.rowsAtFault).toBe(1);
    expect((await db.folds.toArray()).map((stored) => stored.id)).toEqual(['stale']);
  });
});
