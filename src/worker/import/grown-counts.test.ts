import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../../core/import/run.ts';
import { appendLiveEntry, createLiveSession } from '../../db/live-sessions.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';
import type { JobProgress } from '../engine/protocol.ts';

const PI = importText(readFileSync('public/samples/pi/v3-small.jsonl', 'utf8'));

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('counting a live session as its journal grows', () => {
  it('counts only the new entries, with the same figures as counting the whole journal', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const { id } = await createLiveSession(db, {
      title: 'Live', folder: { name: 'folder', snapshot: true },
      config: { model: { kind: 'scripted', name: 'script.json', script: [] }, strategy: 'pi', options: {}, contextWindow: 8000, counter: 'o200k', gitignore: false },
    });
    const half = Math.floor(PI.entries.length / 2);
    for (const entry of PI.entries.slice(0, half)) await appendLiveEntry(db, id, entry);
    await engine.countTokens('c1', id, 'o200k', () => undefined);
    for (const entry of PI.entries.slice(half)) await appendLiveEntry(db, id, entry);

    const progress: JobProgress[] = [];
    const grown = await engine.countTokens('c2', id, 'o200k', (p) => progress.push(p));
    // Only the entries appended since the first count were counted.
    expect(progress.at(-1)?.total).toBe(PI.entries.length - half);

    // The same figures as a count of the whole journal (the cache dropped).
    await db.tokenCounts.clear();
    const whole = await engine.countTokens('c3', id, 'o200k', () => undefined);
    expect(Array.from(grown.totals)).toEqual(Array.from(whole.totals));
    expect(grown.total).toBe(whole.total);
    expect(grown.byRole).toEqual(whole.byRole);
    expect(grown.byKind).toEqual(whole.byKind);
  });

  it('an imported conversation is counted whole after a re-import', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const { conversation } = await engine.importBlob(new Blob([readFileSync('public/samples/pi/v3-small.jsonl')]), { jobId: 'i', fileName: 'v3.jsonl', origin: 'file' }, () => undefined);
    await engine.countTokens('c1', conversation.id, 'chars4', () => undefined);
    await engine.importBlob(new Blob([readFileSync('public/samples/claude-code/dag_compact_after_rewind.jsonl')]), { jobId: 'j', fileName: 'dag.jsonl', origin: 'file', replaceId: conversation.id }, () => undefined);
    const progress: JobProgress[] = [];
    const counts = await engine.countTokens('c2', conversation.id, 'chars4', (p) => progress.push(p));
    const entries = (await db.conversations.get(conversation.id))!.entryCount;
    expect(counts.totals.length).toBe(entries);
    expect(progress.at(-1)?.total).toBe(entries);
  });
});
