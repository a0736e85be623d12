import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from '../engine/engine.ts';
import { FoldJobs } from './fold-jobs.ts';

let db: FoldlabDatabase;
afterEach(async () => {
  await db.delete();
});

async function fold(path: string, fileName: string, from?: 'last-compaction') {
  db = new FoldlabDatabase(`t-${Math.random()}`);
  const engine = new Engine(db);
  const { conversation } = await engine.importBlob(new Blob([readFileSync(path)]), { jobId: 'i', fileName, origin: 'file' }, () => undefined);
  const folds = new FoldJobs(db, async (id, counter) => (await engine.countTokens('c', id, counter, () => undefined)).totals);
  return folds.fold({ conversationId: conversation.id, options: {}, counter: 'chars4', contextWindow: 200_000, summarizer: 'offline', ...(from ? { from } : {}) });
}

describe('where a fold starts', () => {
  it('starts at the first entry, leaving the compactions the journal records out, and says so (pi compaction)', async () => {
    const view = await fold('public/samples/pi/v3-small.jsonl', 'v3.jsonl');
    expect(view.startNote).toMatch(/^From the first entry of the branch \(.*\): the source agent's own compactions \(line \d+, \d+\) are left out/);
  });

  it('continues from the last compaction the journal records on request, and says so', async () => {
    const view = await fold('public/samples/pi/v3-small.jsonl', 'v3.jsonl', 'last-compaction');
    expect(view.startNote).toMatch(/^From the compaction the source agent recorded at line \d+/);
  });

  it('states its scope: the whole session by default, the calls after the recorded compaction on request (pi sample)', async () => {
    const whole = await fold('public/samples/pi/before-compaction.jsonl', 'b.jsonl');
    expect(whole.scope).toMatchObject({ from: 'start', calls: 471, branchCalls: 471, sourceCompactions: 2 });
    expect(whole.scope?.note).toMatch(/^From the first entry of the branch \(.*471 calls\): the source agent's own compactions \(line 360, 629\) are left out/);
    await db.delete();
    const last = await fold('public/samples/pi/before-compaction.jsonl', 'b.jsonl', 'last-compaction');
    expect(last.scope).toMatchObject({ from: 'last-compaction', calls: 177, branchCalls: 471 });
    expect(last.scope?.note).toMatch(/^From the compaction the source agent recorded at line 629/);
    expect(last.totalIterations).toBeLessThan(whole.totalIterations);
  });

  it('says nothing when the journal records no compaction', async () => {
    const view = await fold('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'c.jsonl');
    expect(view.startNote).toBeUndefined();
  });
});
