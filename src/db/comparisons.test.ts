import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplayResult } from '../core/replay/types.ts';
import type { CompareRequest, CompareResult } from '../worker/compare/compare-protocol.ts';
import {
  deleteComparison, deleteComparisonsOf, dismissProbe, getComparison, listComparisons, listDismissedProbes, renameComparison, restoreProbes, saveComparison, storableRequest,
} from './comparisons.ts';
import { FoldlabDatabase } from './schema.ts';

const CANARY = 'sk-canary-7c1e0b5d2a9f4e81';

function request(overrides: Partial<CompareRequest> = {}): CompareRequest {
  return {
    jobId: 'compare-1',
    conversationId: 'c1',
    counter: 'chars4',
    contextWindow: 50_000,
    configs: [{ strategy: 'pi', options: { keepRecentTokens: '8000' } }, { strategy: 'sliding-window', options: {}, label: 'window' }],
    summarizer: 'remote',
    remote: { presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: CANARY },
    localAppConfig: { model_list: [] },
    dismissedProbes: ['p1'],
    ...overrides,
  };
}

function replay(label: string): ReplayResult {
  return {
    config: { strategy: label, options: {} },
    label,
    counter: 'chars/4',
    contextWindow: 50_000,
    calls: [{ call: 0, entryIndex: 1, entryId: 'e1', contextTokens: 10, cachedTokens: 0, outputTokens: 5, compacted: false, overflow: false }],
    compactions: [],
    totals: { calls: 1, tokensPerTask: 10, contextTokens: 10, peakTokens: 10, compactions: 0, overflowCalls: 0, summarizerTokens: { input: 0, output: 0 }, cost: null, costModel: null },
    probes: [],
    scores: { artifact: { total: 0, kept: 0 }, constraint: { total: 0, kept: 0 }, task: { total: 0, kept: 0 }, error: { total: 0, kept: 0 }, identifier: { total: 0, kept: 0 }, decision: { total: 0, kept: 0 } },
    compactionScores: { artifact: { total: 0, kept: 0 }, constraint: { total: 0, kept: 0 }, task: { total: 0, kept: 0 }, error: { total: 0, kept: 0 }, identifier: { total: 0, kept: 0 }, decision: { total: 0, kept: 0 } },
    finalContext: [{ origin: 'journal', entryId: 'e0' }, { origin: 'journal', entryId: 'e1' }],
    notes: [],
  };
}

function result(): CompareResult {
  return { conversationId: 'c1', counter: 'chars4', counterLabel: 'chars/4', contextWindow: 50_000, entryIds: ['e0', 'e1'], results: [replay('pi'), replay('sliding-window')], durationMs: 12 };
}

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

async function dump(database: FoldlabDatabase): Promise<string> {
  const tables = await Promise.all(database.tables.map(async (table) => [table.name, await table.toArray()] as const));
  return JSON.stringify(tables);
}

describe('comparisons repository', () => {
  it('saves a comparison without the API key, the job id or the model config, and reads it back', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const row = await saveComparison(db, { conversationId: 'c1', importId: 'i1', name: '  pi  vs window ', request: request(), result: result() });
    expect(row.name).toBe('pi vs window');
    const stored = await getComparison(db, row.id);
    expect(stored?.result).toEqual(result());
    expect(stored?.request.remote).toEqual({ presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' });
    expect(stored?.request.configs).toEqual(request().configs);
    expect(stored?.request.dismissedProbes).toEqual(['p1']);
    expect(stored?.request).not.toHaveProperty('jobId');
    expect(stored?.request).not.toHaveProperty('localAppConfig');
    expect(await dump(db)).not.toContain(CANARY);
  });

  it('strips a key however the request was built (a stored request passes through unchanged)', () => {
    const once = storableRequest(request());
    expect(JSON.stringify(once)).not.toContain(CANARY);
    expect(storableRequest(once)).toEqual(once);
    const withExtra = { ...request(), remote: { ...request().remote!, headers: { authorization: CANARY } } } as CompareRequest;
    expect(JSON.stringify(storableRequest(withExtra))).not.toContain(CANARY);
  });

  it('lists one conversation newest first; rename, delete, and delete all of a conversation', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const older = await saveComparison(db, { conversationId: 'c1', importId: 'i1', name: 'older', request: request(), result: result(), createdAt: 1000 });
    const newer = await saveComparison(db, { conversationId: 'c1', importId: 'i1', name: 'newer', request: request(), result: result(), createdAt: 2000 });
    await saveComparison(db, { conversationId: 'c2', importId: 'i2', name: 'other', request: request({ conversationId: 'c2' }), result: result() });
    expect((await listComparisons(db, 'c1')).map((row) => row.id)).toEqual([newer.id, older.id]);
    await renameComparison(db, older.id, 'renamed');
    expect((await getComparison(db, older.id))?.name).toBe('renamed');
    await expect(renameComparison(db, older.id, '   ')).rejects.toThrow(/cannot be empty/);
    await deleteComparison(db, newer.id);
    expect((await listComparisons(db, 'c1')).map((row) => row.name)).toEqual(['renamed']);
    await dismissProbe(db, 'c1', { id: 'p1', category: 'artifact', text: 'src/a.ts' });
    await deleteComparisonsOf(db, 'c1');
    expect(await listComparisons(db, 'c1')).toEqual([]);
    expect(await listDismissedProbes(db, 'c1')).toEqual([]);
    expect(await listComparisons(db, 'c2')).toHaveLength(1);
  });

  it('remembers dismissed probes per conversation and restores one or all', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    await dismissProbe(db, 'c1', { id: 'p1', category: 'artifact', text: 'src/a.ts' });
    await dismissProbe(db, 'c1', { id: 'p2', category: 'error', text: 'TypeError: x' });
    await dismissProbe(db, 'c1', { id: 'p1', category: 'artifact', text: 'src/a.ts' });
    await dismissProbe(db, 'c2', { id: 'p1', category: 'artifact', text: 'src/a.ts' });
    expect((await listDismissedProbes(db, 'c1')).map((row) => row.probeId).sort()).toEqual(['p1', 'p2']);
    await restoreProbes(db, 'c1', 'p1');
    expect((await listDismissedProbes(db, 'c1')).map((row) => row.probeId)).toEqual(['p2']);
    await restoreProbes(db, 'c1');
    expect(await listDismissedProbes(db, 'c1')).toEqual([]);
    expect(await listDismissedProbes(db, 'c2')).toHaveLength(1);
  });

  it('opens a database written by version 2 and keeps its rows', async () => {
    const name = `t-${Math.random()}`;
    const { default: Dexie } = await import('dexie');
    const v2 = new Dexie(name);
    v2.version(1).stores({ conversations: 'id, importedAt', entries: '[conversationId+index], conversationId', tokenCounts: '[conversationId+counter], conversationId', settings: 'key' });
    v2.version(2).stores({ compactions: 'id, conversationId, [conversationId+createdAt]', pins: '[conversationId+entryId], conversationId' });
    await v2.table('pins').put({ conversationId: 'c1', entryId: 'e1' });
    v2.close();
    db = new FoldlabDatabase(name);
    expect(await db.pins.count()).toBe(1);
    expect(await listComparisons(db, 'c1')).toEqual([]);
  });
});
