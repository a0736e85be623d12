// Model fold summaries as job records: recorded while they run, offered after a reload, resumed
// with the recorded request (the key read again, never stored), and nothing recorded without a model.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { heldLocks, interruptedJobs, jobsTable } from '../../db/jobs.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import type { FoldRequest, FoldView } from './fold-protocol.ts';
import { JobNotResumableError } from '../compaction/resumable-compaction.ts';
import { ResumableFolds } from './resumable-fold.ts';
import { OriginLocks } from '../compaction/testing-locks.ts';

let db: FoldlabDatabase;
afterEach(async () => {
  db?.close();
  await FoldlabDatabase.delete(db?.name ?? '');
});

const view = { notes: [] } as unknown as FoldView;
const remote = { presetId: 'openai', api: 'openai' as const, baseUrl: 'https://api.example.test/v1', model: 'gpt-test', apiKey: 'sk-secret-fold', keyOrigin: 'https://api.example.test' };
const request = (extra: Partial<FoldRequest> = {}): FoldRequest => ({ conversationId: 'c1', options: {}, counter: 'chars4', contextWindow: 200_000, summarizer: 'remote', remote, jobId: 'fold-1', selfCheck: true, ...extra });

async function open() {
  db = new FoldlabDatabase(`resumable-fold-${Math.random()}`);
  await db.open();
  return jobsTable(db)!;
}

describe('ResumableFolds', () => {
  it('records nothing for a fold without a model, or for the replay\'s cached-only steps', async () => {
    const jobs = await open();
    const folds = new ResumableFolds(db, new OriginLocks().api);
    const asked: FoldRequest[] = [];
    const fold = async (r: FoldRequest) => (asked.push(r), view);
    await folds.run(request({ summarizer: 'offline' }), new AbortController().signal, fold);
    await folds.run(request({ cachedOnly: true }), new AbortController().signal, fold);
    expect(asked).toHaveLength(2);
    expect(await jobs.count()).toBe(0);
  });

  it('keeps a record while the model works, without the key, and marks it done', async () => {
    const jobs = await open();
    const locks = new OriginLocks();
    const folds = new ResumableFolds(db, locks.api);
    let during: unknown;
    await folds.run(request(), new AbortController().signal, async () => {
      const [job] = await jobs.toArray();
      during = { state: job?.state, held: (await heldLocks(locks)).has(`foldlab.job.${job?.id}`) };
      return view;
    });
    expect(during).toEqual({ state: 'running', held: true });
    const [job] = await jobs.toArray();
    expect(job).toMatchObject({ kind: 'fold-summaries', state: 'done', conversationId: 'c1', label: 'Fold summaries by the model (openai · gpt-test) with self-check' });
    expect(JSON.stringify(job)).not.toContain('sk-secret-fold');
    expect(JSON.stringify(job)).not.toContain('fold-1');
  });

  it('is offered after a reload and resumes the recorded request with the key read again', async () => {
    const jobs = await open();
    const before = new OriginLocks();
    // The page is reloaded while the model has not answered.
    void new ResumableFolds(db, before.api).run(request(), new AbortController().signal, () => new Promise<FoldView>(() => undefined));
    await expect.poll(async () => (await jobs.toArray())[0]?.state).toBe('running');
    expect(await interruptedJobs(jobs, await heldLocks(before))).toEqual([]);

    const after = new OriginLocks();
    const [interrupted] = await interruptedJobs(jobs, await heldLocks(after));
    expect(interrupted?.kind).toBe('fold-summaries');
    // Neither the key nor the origin it was bound to is recorded: a resume takes both from the page.
    expect(interrupted?.request.remote).toEqual({ presetId: 'openai', api: 'openai', baseUrl: 'https://api.example.test/v1', model: 'gpt-test' });
    const asked: FoldRequest[] = [];
    await new ResumableFolds(db, after.api).run(
      { conversationId: 'c1', options: {}, counter: 'o200k', contextWindow: 1, summarizer: 'offline', remote: { ...remote, apiKey: 'sk-read-again', keyOrigin: 'https://bound.example' }, resumeJobId: interrupted!.id, jobId: 'fold-2' },
      new AbortController().signal,
      async (r) => (asked.push(r), view),
    );
    // The recorded request (model, counter, window, self-check), the key from now, the page's cancel id.
    expect(asked[0]).toMatchObject({ summarizer: 'remote', counter: 'chars4', contextWindow: 200_000, selfCheck: true, jobId: 'fold-2', remote: { apiKey: 'sk-read-again', keyOrigin: 'https://bound.example', model: 'gpt-test' } });
    expect((await jobs.get(interrupted!.id))?.state).toBe('done');
    expect(await interruptedJobs(jobs, await heldLocks(after))).toEqual([]);
  });

  it('records a cancel and a failure, and refuses to resume what was discarded', async () => {
    const jobs = await open();
    const folds = new ResumableFolds(db, new OriginLocks().api);
    const controller = new AbortController();
    await expect(folds.run(request(), controller.signal, async () => {
      controller.abort();
      throw new Error('aborted');
    })).rejects.toThrow('aborted');
    await expect(folds.run(request(), new AbortController().signal, async () => {
      throw new Error('401: the key was refused');
    })).rejects.toThrow('401');
    const states = (await jobs.toArray()).map((job) => [job.state, job.error]);
    expect(states).toEqual(expect.arrayContaining([['cancelled', undefined], ['failed', '401: the key was refused']]));

    const [first] = await jobs.toArray();
    await jobs.update(first!.id, { state: 'discarded' });
    await expect(folds.run(request({ resumeJobId: first!.id }), new AbortController().signal, async () => view)).rejects.toBeInstanceOf(JobNotResumableError);
    await expect(folds.run(request({ resumeJobId: 'no-such-job' }), new AbortController().signal, async () => view)).rejects.toThrow(/no longer recorded/);
  });
});
