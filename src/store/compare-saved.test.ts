// A saved comparison exported and deleted from the Compare tab, on the page's own database (fake-indexeddb in Node).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDS, result } from '../core/replay/testing-result.ts';
import { saveComparison } from '../db/comparisons.ts';
import { db } from '../db/db.ts';
import { deleteComparison } from './compare-actions.ts';
import { comparisonExport } from './compare-reads.ts';
import { comparisonCsv, comparisonJson } from './view/comparison.ts';

afterEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
});

const saved = (conversationId = 'c1') => saveComparison(db, {
  conversationId, importId: 'i1', name: 'pi vs window', createdAt: 1_700_000_000_000,
  request: { conversationId, counter: 'chars4', contextWindow: 100, configs: [{ strategy: 'pi', options: {} }], summarizer: 'offline' },
  result: { conversationId, counter: 'chars4', counterLabel: 'chars/4', contextWindow: 100, entryIds: IDS, results: [result([])], durationMs: 1 },
});

describe('a saved comparison from the Compare tab', () => {
  it('exports as the JSON and CSV of the stored row, with its name and date', async () => {
    const row = await saved();
    expect(await comparisonExport(row.id, 'json')).toEqual({ name: 'pi vs window', createdAt: 1_700_000_000_000, text: comparisonJson(row) });
    expect((await comparisonExport(row.id, 'csv')).text).toBe(comparisonCsv(row));
  });

  it('says a deleted comparison has nothing to export', async () => {
    await expect(comparisonExport('gone', 'csv')).rejects.toThrow('This comparison was deleted: there is nothing to export.');
  });

  it('deletes one comparison and leaves the others', async () => {
    const [one, other] = [await saved(), await saved('c2')];
    await deleteComparison(one.id);
    expect(await db.comparisons.get(one.id)).toBeUndefined();
    expect(await db.comparisons.get(other.id)).toBeDefined();
  });
});
