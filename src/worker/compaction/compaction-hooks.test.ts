// The app's compaction with the user's hook module (P8): each call through a hook worker (here the
// module is imported in-process from a data: URL the way hook.worker.ts imports its Blob URL).
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dataUrlHookWorker } from '../../core/hooks/test-hook-worker.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import { Engine } from '../engine/engine.ts';
import type { CompactRequest } from '../engine/protocol.ts';

const CLAUDE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

const spawned: string[] = [];
async function setup() {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const outcome = await engine.importBlob(new Blob([CLAUDE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
  const counts = async (id: string, counter: CompactRequest['counter']) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
  const request = (hookSource: string, extra: Partial<CompactRequest> = {}): CompactRequest => ({
    jobId: 'j', conversationId: outcome.conversation.id, strategy: 'pi', options: {}, counter: 'chars4', contextWindow: 200_000, summarizer: 'offline', hookSource, ...extra,
  });
  return { jobs: new CompactionJobs(db, counts, undefined, (source) => dataUrlHookWorker(source, (spawn) => spawned.push(spawn))), request };
}

describe('compaction with the user\'s hooks', () => {
  it('before-compact supplies the summary the run stores; an after-compact failure is kept as a note', async () => {
    const { jobs, request } = await setup();
    const source = 'export function beforeCompact(e) { return { summary: `From the hook: ${e.entries.length} entries, cut at ${e.cut.entryId}` }; }\nexport function afterCompact() { throw new Error("notifier down"); }';
    const row = await jobs.compact(request(source), new AbortController().signal, () => undefined);
    expect(row.summaries.history).toMatch(/^From the hook: \d+ entries, cut at \S+$/);
    expect(row.record.summarizer).toBe('hook');
    expect(row.record.notes).toContain('The after-compact hook threw: notifier down.');
    expect(await db.compactions.count()).toBe(1);
  });

  it('a cancel or a broken module stores nothing', async () => {
    const { jobs, request } = await setup();
    await expect(jobs.compact(request('export const beforeCompact = () => ({ cancel: true, reason: "review first" });'), new AbortController().signal, () => undefined))
      .rejects.toThrow('The before-compact hook cancelled the compaction: review first. Nothing was changed.');
    await expect(jobs.compact(request('export default 1;'), new AbortController().signal, () => undefined)).rejects.toThrow(/exports none of beforeCompact/);
    expect(await db.compactions.count()).toBe(0);
  });

  it('before-fork is asked for a run at an earlier point in time, not for the whole branch', async () => {
    const { jobs, request } = await setup();
    const source = 'export function beforeFork(e) { return { cancel: true, reason: `kept up to ${e.entryId}, ${e.entriesLeftOut} left out` }; }';
    await expect(jobs.compact(request(source, { upTo: 60 }), new AbortController().signal, () => undefined)).rejects.toThrow(/The before-fork hook cancelled the fork: kept up to \S+, \d+ left out\./);
    expect(await db.compactions.count()).toBe(0);
    const row = await jobs.compact(request(source), new AbortController().signal, () => undefined);
    expect(row.record.summary_applied).toBe(true);
  });
});
