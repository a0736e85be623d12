import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import type { Entry } from '../core/journal/entry.ts';
import type { ImportResult } from '../core/import/types.ts';
import { commitImport, loadEntries } from './conversations.ts';
import { SAVE_BATCH_SIZE } from './save-batches.ts';
import { FoldlabDatabase } from './schema.ts';
import { CancelledError } from '../core/cancel.ts';

const PI = importText(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8'));

/** Characters of a "huge" entry: more than half a batch, so two never share one. */
const HUGE = Math.ceil(SAVE_BATCH_SIZE * 0.6);

function entry(index: number, text: string): Entry {
  return { id: `e${index}`, index, parentId: index === 0 ? null : `e${index - 1}`, role: 'user', kind: 'message', blocks: [{ type: 'text', text }], sourceType: 'user', line: index + 1 };
}

/** An import of `tiny` one-word entries with a huge entry at each index of `hugeAt`. */
function journal(count: number, hugeAt: readonly number[]): ImportResult {
  const entries = Array.from({ length: count }, (_, i) => entry(i, hugeAt.includes(i) ? 'h'.repeat(HUGE) : `word ${i}`));
  return { ...PI, entries };
}

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('commitImport batches', () => {
  it('reports progress after each batch, strictly increasing up to the entry count; huge entries never share a batch', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const hugeAt = [10, 11, 12, 1500, 1501];
    const result = journal(3000, hugeAt);
    const saved: number[] = [];
    const row = await commitImport(db, result, { fileName: 'big.jsonl', size: 1, origin: 'file', onSaved: (n) => saved.push(n) });
    expect(saved.at(-1)).toBe(3000);
    for (let i = 1; i < saved.length; i++) expect(saved[i]!).toBeGreaterThan(saved[i - 1]!);
    let start = 0;
    for (const end of saved) {
      expect(hugeAt.filter((i) => i >= start && i < end).length).toBeLessThanOrEqual(1);
      start = end;
    }
    // The tiny entries are still grouped: a handful of batches, not one per entry.
    expect(saved.length).toBeLessThanOrEqual(3 + 2 * hugeAt.length);
    expect((await loadEntries(db, row.id)).length).toBe(3000);
  });

  it('a Cancel after the first batch stops the save there: a re-import leaves the old entries, a new import leaves nothing', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const old = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    // Fewer rows than one row-capped batch: only the size estimate splits them.
    const result = journal(20, [3, 4, 5, 6]);
    for (const replaceId of [old.id, undefined]) {
      const controller = new AbortController();
      const saved: number[] = [];
      const onSaved = (n: number) => {
        saved.push(n);
        controller.abort();
      };
      const attempt = commitImport(db, result, { fileName: 'again.jsonl', size: 1, origin: 'file', signal: controller.signal, onSaved, ...(replaceId ? { replaceId } : {}) });
      await expect(attempt).rejects.toBeInstanceOf(CancelledError);
      // Stopped between two batches, well before the end.
      expect(saved).toHaveLength(1);
      expect(saved[0]!).toBeLessThan(result.entries.length);
      const conversations = await db.conversations.toArray();
      expect(conversations.map((c) => c.importId)).toEqual([old.importId]);
      expect(await loadEntries(db, old.id)).toEqual((await db.entries.toArray()));
      expect((await loadEntries(db, old.id)).length).toBe(PI.entries.length);
    }
  });

  it('a batch that fails after others were written rolls the whole import back', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const old = await commitImport(db, PI, { fileName: 'v3.jsonl', size: 10, origin: 'file' });
    const result = journal(3000, [10, 1500]);
    // A value IndexedDB cannot clone, in the third batch: the first ones are already written.
    (result.entries[2500]!.blocks as unknown[]).push(() => 1);
    const saved: number[] = [];
    await expect(commitImport(db, result, { fileName: 'bad.jsonl', size: 1, origin: 'file', replaceId: old.id, onSaved: (n) => saved.push(n) })).rejects.toThrow();
    expect(saved.length).toBeGreaterThan(0);
    expect((await db.conversations.get(old.id))?.importId).toBe(old.importId);
    expect(await db.entries.count()).toBe(PI.entries.length);
  });
});
