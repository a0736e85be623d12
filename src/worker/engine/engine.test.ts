import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCopilotWorkspace } from '../../core/import/copilot-workspace.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from './engine.ts';
import type { JobProgress } from './protocol.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const COPILOT = 'public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e';

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
    // The import's reply already carried the counts it stored: the same figures, entry by entry.
    expect(outcome.counts).toMatchObject({ conversationId: outcome.conversation.id, counter: 'o200k', total: counts.total, cached: false });
    expect([...outcome.counts.totals]).toEqual([...counts.totals]);
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

  it('counts before it writes: a cancel while counting stores nothing, and the counts are cached with the import', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    // A message with a 1 MB run without whitespace: counting it spans several slices.
    const line = JSON.stringify({ type: 'message', id: 'm1', parentId: null, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'a'.repeat(1_000_000) } });
    const text = `${JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/' })}\n${line}\n`;
    const phases: string[] = [];
    const pending = engine.importBlob(new Blob([text]), { jobId: 'count-cancel', fileName: 'run.jsonl', origin: 'file' }, (p) => {
      phases.push(p.phase);
      if (p.phase === 'counting') engine.cancel('count-cancel');
    });
    await expect(pending).rejects.toThrow(/Cancelled: nothing was changed/);
    expect(phases).toContain('counting');
    expect(phases).not.toContain('saving');
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);

    const done = await engine.importBlob(new Blob([text]), { jobId: 'count-ok', fileName: 'run.jsonl', origin: 'file' }, () => undefined);
    expect(done.report.tokens.total).toBeGreaterThan(1_000_000 / 16);
    const cached = await engine.countTokens('again', done.conversation.id, 'o200k', () => undefined);
    expect(cached).toMatchObject({ cached: true, total: done.report.tokens.total });
  });

  it('a cancel that arrives as saving starts stores nothing, and a re-import keeps what it replaced', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const cancelOnSave = (jobId: string) => (p: JobProgress) => {
      if (p.phase === 'saving') engine.cancel(jobId);
    };
    await expect(engine.importBlob(new Blob([CLAUDE]), { jobId: 's1', fileName: 'c.jsonl', origin: 'file' }, cancelOnSave('s1'))).rejects.toThrow(/Cancelled: nothing was changed/);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);

    // A re-import cancelled while it is written is rolled back: the conversation keeps its first import.
    const first = await engine.importBlob(new Blob([CLAUDE]), { jobId: 's2', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
    const again = engine.importBlob(new Blob([CLAUDE]), { jobId: 's3', fileName: 'c.jsonl', origin: 'file', replaceId: first.conversation.id }, cancelOnSave('s3'));
    await expect(again).rejects.toThrow(/Cancelled: nothing was changed/);
    const row = await db.conversations.get(first.conversation.id);
    expect(row?.importId).toBe(first.conversation.importId);
    expect(await db.entries.count()).toBe(first.conversation.entryCount);
  });

  it('a cancel between two batches of the save abandons the transaction, and the bar moves while saving', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const header = JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/' });
    const lines = Array.from({ length: 3_500 }, (_, i) => JSON.stringify({ type: 'message', id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: `step ${i}` } }));
    const text = `${[header, ...lines].join('\n')}\n`;
    const saved: number[] = [];
    const pending = engine.importBlob(new Blob([text]), { jobId: 'mid-save', fileName: 'chain.jsonl', origin: 'file' }, (p) => {
      if (p.phase !== 'saving') return;
      saved.push(p.done);
      // After the first batch is written (in the transaction, not committed).
      if (p.done > 0) engine.cancel('mid-save');
    });
    await expect(pending).rejects.toThrow(/Cancelled: nothing was changed/);
    expect(saved[0]).toBe(0);
    expect(saved.at(-1)).toBeGreaterThan(0);
    expect(saved.at(-1)).toBeLessThan(3_500);
    expect(await db.conversations.count()).toBe(0);
    expect(await db.entries.count()).toBe(0);

    const progress: number[] = [];
    await engine.importBlob(new Blob([text]), { jobId: 'whole', fileName: 'chain.jsonl', origin: 'file' }, (p) => p.phase === 'saving' && progress.push(p.done));
    expect(new Set(progress).size).toBeGreaterThan(2);
    expect(await db.entries.count()).toBe(3_500);
  });

  it('reports the true number of skipped lines and the blank lines, also when reading the stored conversation back', async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    const lines = CLAUDE.toString('utf8').trimEnd().split('\n');
    const broken = Array.from({ length: 1200 }, (_, i) => `{broken ${i}`);
    const text = [...lines.slice(0, 5), '', ...broken, '  ', ...lines.slice(5)].join('\n');
    const outcome = await engine.importBlob(new Blob([text]), { jobId: 'many', fileName: 'many.jsonl', origin: 'file' }, () => undefined);
    expect(outcome.report).toMatchObject({ skippedLines: 1200, blankLines: 2 });
    expect(outcome.conversation.issues).toHaveLength(1000);
    expect(outcome.conversation).toMatchObject({ issueCount: 1200, blankLines: 2 });
    expect(await engine.inspect(outcome.conversation.id, 'o200k')).toMatchObject({ skippedLines: 1200, blankLines: 2 });
  });

  it("stores a session's branch and start with the conversation (its workspace.yaml filling what the log lacks) and reads them back for inspect", async () => {
    db = new FoldlabDatabase(`t-${Math.random()}`);
    const engine = new Engine(db);
    // The sample's log with session.start's context.branch and startTime taken out: workspace.yaml supplies both.
    const log = readFileSync(`${COPILOT}/events.jsonl`, 'utf8').replace('"startTime":"2026-08-05T20:40:13.471Z",', '').replace(',"branch":"master"', '');
    const copilotWorkspace = parseCopilotWorkspace(readFileSync(`${COPILOT}/workspace.yaml`, 'utf8').replace('branch: master', 'branch: fix-empty-cart'), 'workspace.yaml');
    const outcome = await engine.importBlob(new Blob([log]), { jobId: 'ws', fileName: 'events.jsonl', origin: 'file', copilotWorkspace }, () => undefined);
    expect((await db.conversations.get(outcome.conversation.id))?.meta).toMatchObject({ gitBranch: 'fix-empty-cart', createdAt: Date.UTC(2026, 7, 5, 20, 40, 13, 482), cwd: '/work' });
    const session = { cwd: '/work', branch: 'fix-empty-cart', created: '2026-08-05 20:40:13 UTC', model: 'qwen3:0.6b', version: '1.0.78' };
    expect(outcome.report.session).toEqual(session);
    expect((await engine.inspect(outcome.conversation.id, 'o200k')).session).toEqual(session);
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
