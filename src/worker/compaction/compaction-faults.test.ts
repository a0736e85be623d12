import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sourceHash, type Provenance } from '../../core/compaction/provenance.ts';
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { ConversationDeletedError, commitImport, deleteConversation, loadEntries } from '../../db/conversations.ts';
import { importText } from '../../core/import/run.ts';
import { CompactionJobs } from './compaction-jobs.ts';
import type { CompactRequest } from '../engine/protocol.ts';
import { CLAUDE_SAMPLE, importedSamples } from '../engine/test-fixtures.ts';

const openSample = importedSamples();

async function setup() {
  const sample = await openSample();
  const request = (summarizer: string): CompactRequest => ({
    jobId: 'j', conversationId: sample.outcome.conversation.id, strategy: 'pi', options: {}, counter: 'chars4', contextWindow: 200_000, summarizer, now: 1_800_000_000_000,
  });
  return { ...sample, request };
}

/** The offline summarizer, but `during` runs while the first summary is being made (the user acts meanwhile). */
function meanwhile(during: () => Promise<void>): Summarizer {
  const offline = createOfflineSummarizer();
  let first = true;
  return {
    id: 'offline', label: 'offline',
    summarize: async (request) => {
      if (first) {
        first = false;
        await during();
      }
      return offline.summarize(request);
    },
  };
}

describe('a run commits only if its conversation still exists', () => {
  it('deleting the conversation while it is being compacted stores no run: the job says the conversation was deleted', async () => {
    const { db, counts, request, outcome } = await setup();
    const jobs = new CompactionJobs(db, counts, { deleting: () => meanwhile(() => deleteConversation(db, outcome.conversation.id)) });
    const error = await jobs.compact(request('deleting'), new AbortController().signal, () => undefined).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationDeletedError);
    expect((error as Error).message).toMatch(/^The conversation was deleted while it was being compacted: the run was not stored/);
    expect(await db.compactions.count()).toBe(0);
    expect(await db.conversations.count()).toBe(0);
  });

  it('a re-import while compacting stores no run made on the old entries', async () => {
    const { db, counts, request, outcome } = await setup();
    const reimport = () => commitImport(db, importText(CLAUDE_SAMPLE.toString('utf8')), { fileName: 'c.jsonl', size: CLAUDE_SAMPLE.length, origin: 'file', replaceId: outcome.conversation.id }).then(() => undefined);
    const jobs = new CompactionJobs(db, counts, { reimporting: () => meanwhile(reimport) });
    await expect(jobs.compact(request('reimporting'), new AbortController().signal, () => undefined)).rejects.toThrow(/re-imported while it was being compacted/);
    expect(await db.compactions.count()).toBe(0);
  });
});

describe('every run records its provenance', () => {
  it('one record per summary: summarizer, model, method, prompt version, range and the hash of exactly the entries it replaced', async () => {
    const { db, counts, request, outcome } = await setup();
    const jobs = new CompactionJobs(db, counts, { offline: () => createOfflineSummarizer() });
    const row = await jobs.compact(request('offline'), new AbortController().signal, () => undefined);
    const stored = (await db.compactions.get(row.id)) as typeof row & { provenance?: Provenance[] };
    expect(stored.provenance).toHaveLength(row.plan.summaries.length);
    const [record] = stored.provenance!;
    const task = row.plan.summaries[0]!;
    expect(record).toMatchObject({ v: 1, summarizer: 'offline', model: row.record.summarizer_model, method: `compaction:pi/${task.id}`, prompt: { id: task.prompt, version: row.record.prompt_versions[task.prompt] } });
    const journal = await loadEntries(db, outcome.conversation.id);
    const covered = row.journalIndex.slice(task.from, task.to + 1).map((index) => journal[index]!);
    expect(record!.range).toEqual({ from: covered[0]!.index, to: covered.at(-1)!.index, count: covered.length, firstId: covered[0]!.id, lastId: covered.at(-1)!.id });
    expect(record!.sourceHash).toBe(sourceHash(covered));
  });
});
