/**
 * For tests only: a realistic library made by the app's own code (two imported sessions, a
 * compaction run, a pin, a saved comparison, a dismissed probe, judged-mode answers, settings, a
 * stored fold with model summaries, a bookmark and a saved sweep), so migration and backup tests check real rows.
 */
import type { PromptLibrary } from '../core/compaction/prompts.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { Engine } from '../worker/engine/engine.ts';
import { FoldJobs } from '../worker/fold/fold-jobs.ts';
import { FoldSummaries } from '../worker/fold/fold-summaries.ts';
import { dismissProbe } from './comparisons.ts';
import { toggleBookmark } from './folds.ts';
import { storeJudgements } from './judgements.ts';
import { saveSweep } from './sweeps.ts';
import { sampleSweep } from './test-sweep.ts';
import type { FoldlabDatabase } from './schema.ts';

/** The files the library is made from (read by the test): public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl and pi/v3-small.jsonl, and the prompt files. */
export interface LibrarySources {
  main: Uint8Array;
  pi: Uint8Array;
  prompts: PromptLibrary;
}

/** Answers every fold prompt with usable JSON. */
export function jsonModel(): Summarizer {
  return {
    id: 'openai',
    label: 'Fake',
    summarize: (request) => Promise.resolve({
      model: 'fake-model',
      text: request.promptId === 'fold-phase-synthesis'
        ? JSON.stringify({ line: `Phase of ${request.vars.span ?? ''}.` })
        : JSON.stringify({ title: `Model title ${request.vars.span ?? ''}`, summary: 'Model summary.', key_actions: ['ran tests'], outcomes: ['passed'], keywords: ['tests'], entities: ['src/app.ts'] }),
    }),
  };
}

/** Fills `db` (empty, schema v5) through the engine and the repositories; returns the two conversation ids. */
export async function buildLibrary(db: FoldlabDatabase, sources: LibrarySources): Promise<{ main: string; pi: string }> {
  const engine = new Engine(db);
  const quiet = () => undefined;
  const main = (await engine.importBlob(new Blob([sources.main as Uint8Array<ArrayBuffer>]), { jobId: 'i1', fileName: 'claude-session.jsonl', origin: 'file' }, quiet)).conversation;
  const pi = (await engine.importBlob(new Blob([sources.pi as Uint8Array<ArrayBuffer>]), { jobId: 'i2', fileName: 'v3-small.jsonl', origin: 'sample', title: 'pi sample' }, quiet)).conversation;
  await engine.countTokens('c', main.id, 'chars4', quiet);
  await engine.compact({ jobId: 'k', conversationId: main.id, strategy: 'pi', options: { keepRecentTokens: 10_000, reserveTokens: 4096 }, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline', now: 1_800_000_000_000 }, quiet);
  const [first] = await db.entries.where('[conversationId+index]').between([main.id, 0], [main.id, 3]).toArray();
  await db.pins.put({ conversationId: main.id, entryId: first!.id });
  await engine.compareAndSave(
    { jobId: 'cmp', conversationId: main.id, counter: 'chars4', contextWindow: 50_000, summarizer: 'offline', configs: [{ strategy: 'pi', options: {} }, { strategy: 'sliding-window', options: { windowSize: 10 } }] },
    { importId: main.importId, name: 'pi vs window' },
    quiet,
  );
  await dismissProbe(db, main.id, { id: 'artifact:src/app.ts', category: 'artifact', text: 'src/app.ts' });
  await storeJudgements(db, [
    { key: 'a:1', kind: 'answer', model: 'gpt-4o-mini', text: 'src/app.ts was modified' },
    { key: 'g:1', kind: 'grade', model: 'gpt-4o-mini', score: 4, reason: 'one file missing' },
  ], 1_800_000_000_000);
  await db.settings.put({ key: 'demo.seeded', value: true });
  await db.settings.put({ key: 'foldlab.preferences', value: { state: { counter: 'chars4', windowTokens: 128_000 }, version: 1 } });
  const counts = async (id: string, counter: CounterId) => (await engine.countTokens('c', id, counter, quiet)).totals;
  const folds = new FoldJobs(db, counts, new FoldSummaries({ remote: () => jsonModel() }, sources.prompts));
  await folds.fold({
    conversationId: main.id, options: {}, counter: 'chars4', contextWindow: 50_000,
    summarizer: 'remote', remote: { presetId: 'openai', api: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-never-stored' },
  });
  await toggleBookmark(db, main.id, 2, 1_800_000_000_000);
  await saveSweep(db, sampleSweep([main, pi]), 1_800_000_000_000);
  return { main: main.id, pi: pi.id };
}
