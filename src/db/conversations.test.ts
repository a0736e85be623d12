import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { commitImport, deleteConversation, loadEntries, renameConversation } from './conversations.ts';
import { FoldlabDatabase } from './schema.ts';

const PI = importText(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8'));
const CLAUDE = importText(readFileSync('public/samples/claude-code/dag_compact_after_rewind.jsonl', 'utf8'));

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('conversations repository', () => {
  it('stores one row per entry and reads them back in order', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    const entries = await loadEntries(db, row.id);
    expect(entries.map((e) => e.index)).toEqual(PI.entries.map((e) => e.index));
    expect(entries.map(({ conversationId: _c, ...entry }) => entry)).toEqual(PI.entries);
  });

  it('a failed re-import leaves the old entries untouched', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    const poisoned = { ...CLAUDE, entries: CLAUDE.entries.map((e, i) => (i === 3 ? { ...e, blocks: [() => 1] } : e)) } as unknown as typeof CLAUDE;
    await expect(commitImport(db, poisoned, { fileName: 'bad.jsonl', size: 1, origin: 'file', replaceId: row.id })).rejects.toThrow();
    const after = await db.conversations.get(row.id);
    expect(after?.importId).toBe(row.importId);
    expect((await loadEntries(db, row.id)).length).toBe(PI.entries.length);
    expect(await db.conversations.count()).toBe(1);
  });

  it('re-import replaces entries and keeps the id and title', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    await renameConversation(db, row.id, 'Mine');
    const next = await commitImport(db, CLAUDE, { fileName: 'dag.jsonl', size: 5, origin: 'file', replaceId: row.id });
    expect(next.id).toBe(row.id);
    expect(next.title).toBe('Mine');
    expect((await loadEntries(db, row.id)).length).toBe(CLAUDE.entries.length);
  });

  it('rename refuses an empty title; delete removes the entries', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    await expect(renameConversation(db, row.id, '   ')).rejects.toThrow(/cannot be empty/);
    await db.comparisons.add({ id: 'c1', conversationId: row.id, importId: row.importId, createdAt: 1, name: 'x', request: { conversationId: row.id, counter: 'o200k', contextWindow: 1000, configs: [], summarizer: 'offline' }, result: { conversationId: row.id, counter: 'o200k', counterLabel: 'o200k_base', contextWindow: 1000, entryIds: [], results: [], durationMs: 0 } } as never);
    await db.dismissedProbes.put({ conversationId: row.id, probeId: 'p1' } as never);
    await db.jobs.put({ id: 'j1', conversationId: row.id, kind: 'compaction', state: 'running', updatedAt: 1 } as never);
    await deleteConversation(db, row.id);
    expect(await db.entries.count()).toBe(0);
    expect(await db.conversations.count()).toBe(0);
    // Its saved comparisons and dismissed probes go with it.
    expect(await db.comparisons.count()).toBe(0);
    expect(await db.dismissedProbes.count()).toBe(0);
    // And its job records: nothing is offered for resume.
    expect(await db.jobs.count()).toBe(0);
  });
});

describe('loadEntriesInSlices', () => {
  it('reads the same entries as one query, whatever the slice size', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    const { loadEntriesInSlices } = await import('./conversations.ts');
    const whole = await loadEntries(db, row.id);
    for (const slice of [1, 2, 5, 100]) expect(await loadEntriesInSlices(db, row.id, slice)).toEqual(whole);
  });
});
