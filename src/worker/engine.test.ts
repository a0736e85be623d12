import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../db/schema.ts';
import { Engine } from './engine.ts';
import type { JobProgress } from './protocol.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

describe('Engine', () => {
  it('imports a blob with progress, stores it and counts its tokens', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const progress: JobProgress[] = [];
    const outcome = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'j1', fileName: 'c.jsonl', origin: 'file' }, (p) => progress.push(p));
    expect(outcome.report.toolCalls).toBe(101);
    expect(outcome.report.tokens.total).toBeGreaterThan(0);
    expect(progress.some((p) => p.phase === 'reading' && p.done === CLAUDE.byteLength)).toBe(true);
    expect(await db.entries.count()).toBe(outcome.report.entries);

    const counts = await engine.countTokens('j2', outcome.conversation.id, 'o200k', () => undefined);
    expect(counts.cached).toBe(true);
    expect(counts.total).toBe(outcome.report.tokens.total);
    const chars = await engine.countTokens('j3', outcome.conversation.id, 'chars', () => undefined);
    expect(chars.cached).toBe(false);
    expect(chars.totals.length).toBe(outcome.report.entries);

    const report = await engine.inspect(outcome.conversation.id, 'o200k');
    expect(report).toEqual(outcome.report);
  });

  it('a failed import stores nothing', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    await expect(engine.importBlob(new Blob(['{"foo":1}']), { jobId: 'j', fileName: 'x.json', origin: 'file' }, () => undefined)).rejects.toThrow(/unknown shape/);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);
  });

  it('a cancelled import stores nothing', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const big = new Blob(Array.from({ length: 20 }, () => CLAUDE));
    const pending = engine.importBlob(big, { jobId: 'cancel-me', fileName: 'big.jsonl', origin: 'file' }, () => undefined);
    engine.cancel('cancel-me');
    await expect(pending).rejects.toThrow(/Cancelled/);
    expect(await db.conversations.count()).toBe(0);
  });
});
