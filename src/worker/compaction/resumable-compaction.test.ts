import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { importText } from '../../core/import/run.ts';
import { commitImport } from '../../db/conversations.ts';
import { heldLocks, interruptedJobs, jobsTable, type JobRecord } from '../../db/jobs.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import { Engine } from '../engine/engine.ts';
import { type CompactRequest } from '../engine/protocol.ts';
import { ResumableCompactions, type Locks } from './resumable-compaction.ts';
import { OriginLocks } from './testing-locks.ts';
import { CancelledError } from '../../core/cancel.ts';

const CLAUDE = importText(readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'utf8'));

/** A model summarizer that answers (with the offline text) only once the gate opens, and counts its calls. */
function gatedModel() {
  const state = { calls: 0, open: undefined as (() => void) | undefined, gate: Promise.resolve() };
  const close = () => (state.gate = new Promise<void>((resolve) => (state.open = resolve)));
  const offline = createOfflineSummarizer();
  const summarizer: Summarizer = {
    id: 'openai',
    label: 'fake model',
    summarize: async (request) => {
      state.calls += 1;
      await Promise.race([state.gate, new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))]);
      return { ...(await offline.summarize(request)), model: 'fake-model' };
    },
  };
  return { state, close, summarizer };
}

let db: FoldlabDatabase;
afterEach(async () => {
  db.close();
  await db.delete();
});

async function setup(locks: OriginLocks) {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const conversation = await commitImport(db, CLAUDE, { fileName: 'c.jsonl', size: 1, origin: 'file' });
  const counts = async (id: string, counter: CompactRequest['counter']) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
  const model = gatedModel();
  const make = (ownLocks: OriginLocks) => {
    const jobs = new CompactionJobs(db, counts, { offline: () => createOfflineSummarizer(), remote: () => model.summarizer });
    return new ResumableCompactions(db, (request, signal, onProgress: () => void) => jobs.compact(request, signal, onProgress), ownLocks as unknown as Locks);
  };
  const request = (summarizer: string, extra: Partial<CompactRequest> = {}): CompactRequest => ({
    jobId: `j-${Math.random()}`, conversationId: conversation.id, strategy: 'pi', options: {}, continueFrom: 'none', counter: 'chars4', contextWindow: 200_000, summarizer, now: 1_800_000_000_000,
    remote: { presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-secret-123' },
    ...extra,
  });
  return { guarded: make(locks), make, model, request };
}

const noop = () => undefined;
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
/** Waits (polling) until the condition holds: the steps before a model call take a variable time. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await settle();
}

describe('compaction under the conversation lock', () => {
  it('runs one compaction per conversation: a second waits and says so, and a cancelled wait stores nothing', async () => {
    const locks = new OriginLocks();
    const { guarded, model, request } = await setup(locks);
    model.close();
    const first = guarded.run(request('remote'), new AbortController().signal, noop, noop);
    await until(() => model.state.calls > 0);
    const calls = model.state.calls;
    let waited = 0;
    const controller = new AbortController();
    const second = guarded.run(request('remote'), controller.signal, noop, () => (waited += 1));
    await settle();
    expect(waited).toBe(1);
    // The waiting compaction has not started: no model call of its own.
    expect(model.state.calls).toBe(calls);
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(CancelledError);
    model.state.open?.();
    const row = await first;
    expect(await db.compactions.count()).toBe(1);
    // The next one finds the lock free: no waiting.
    const third = await guarded.run(request('offline'), new AbortController().signal, noop, () => (waited += 1));
    expect(waited).toBe(1);
    expect(third.id).not.toBe(row.id);
  });
});

describe('resumable model compactions', () => {
  it('a model compaction keeps a job record without its key; an offline one keeps none', async () => {
    const { guarded, request } = await setup(new OriginLocks());
    const jobs = jobsTable(db)!;
    await guarded.run(request('offline'), new AbortController().signal, noop, noop);
    expect(await jobs.count()).toBe(0);
    const row = await guarded.run(request('remote'), new AbortController().signal, noop, noop);
    const [job] = await jobs.toArray();
    expect(job).toMatchObject({ kind: 'compaction', state: 'done', resultId: row.id, conversationId: row.conversationId });
    expect(JSON.stringify(job)).not.toContain('sk-secret-123');
  });

  it('an interrupted job is detected, and resuming it stores exactly one run however often it is asked', async () => {
    const before = new OriginLocks();
    const { guarded, make, model, request } = await setup(before);
    const jobs = jobsTable(db)!;
    model.close();
    // The page is reloaded while the model has not answered: the run never finishes.
    guarded.run(request('remote'), new AbortController().signal, noop, noop).catch(() => undefined);
    await until(() => model.state.calls > 0);
    const [recorded] = await jobs.toArray();
    const running = recorded?.kind === 'compaction' ? recorded : undefined;
    expect(running?.state).toBe('running');
    expect(await interruptedJobs(jobs, await heldLocks(before))).toEqual([]);

    const after = new OriginLocks();
    const interrupted = await interruptedJobs(jobs, await heldLocks(after));
    expect(interrupted.map((job: JobRecord) => job.id)).toEqual([running!.id]);
    expect(await db.compactions.count()).toBe(0);

    model.state.open?.();
    const resumed = make(after);
    const resume = { resumeJobId: running!.id, remote: { presetId: 'openai', api: 'openai' as const, baseUrl: 'x', model: 'y', apiKey: 'sk-again' } };
    const [a, b] = await Promise.all([
      resumed.run(request('offline', resume), new AbortController().signal, noop, noop),
      resumed.run(request('offline', resume), new AbortController().signal, noop, noop),
    ]);
    expect(a.id).toBe(running!.resultId);
    expect(b.id).toBe(a.id);
    // The resume ran the recorded request (the model), not the page's.
    expect(a.record.summarizer).toBe('openai');
    expect(await db.compactions.count()).toBe(1);
    expect((await jobs.get(running!.id))?.state).toBe('done');
    expect(await interruptedJobs(jobs, await heldLocks(after))).toEqual([]);
  });

  it('a job interrupted after its run was stored resumes to that run without a model call', async () => {
    const { make, model, request } = await setup(new OriginLocks());
    const locks = new OriginLocks();
    const guarded = make(locks);
    const row = await guarded.run(request('remote'), new AbortController().signal, noop, noop);
    const jobs = jobsTable(db)!;
    const [job] = await jobs.toArray();
    await jobs.update(job!.id, { state: 'running' });
    const calls = model.state.calls;
    const again = await guarded.run(request('remote', { resumeJobId: job!.id }), new AbortController().signal, noop, noop);
    expect(again.id).toBe(row.id);
    expect(model.state.calls).toBe(calls);
    expect(await db.compactions.count()).toBe(1);
    await jobs.update(job!.id, { state: 'discarded' });
    await db.compactions.clear();
    await expect(guarded.run(request('remote', { resumeJobId: job!.id }), new AbortController().signal, noop, noop)).rejects.toThrow(/discarded/);
  });
});
