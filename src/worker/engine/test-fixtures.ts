/**
 * Fixtures for the worker's job tests: a fresh database per test, deleted after it, with the real
 * Claude Code sample (105 calls) imported through the engine, and the engine's token counts in the
 * form the compaction and compare jobs take them.
 */
import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import type { CounterId } from '../../core/tokens/counters.ts';
import { FoldlabDatabase } from '../../db/schema.ts';
import { Engine } from './engine.ts';
import type { ImportOutcome } from './protocol.ts';

/** The real Claude Code session in public/samples, as bytes. */
export const CLAUDE_SAMPLE = readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

export interface ImportedSample {
  db: FoldlabDatabase;
  engine: Engine;
  outcome: ImportOutcome;
  /** The stored conversation's per-entry counts, as `CompactionJobs` and `CompareJobs` ask for them. */
  counts: (conversationId: string, counter: CounterId) => Promise<Uint32Array>;
}

/**
 * Registers the clean-up (call it at a test file's top level) and returns `open`, which makes a
 * fresh database with the sample imported; the database is deleted after each test.
 */
export function importedSamples(): () => Promise<ImportedSample> {
  let opened: FoldlabDatabase | undefined;
  afterEach(async () => {
    await opened?.delete();
    opened = undefined;
  });
  return async () => {
    const db = (opened = new FoldlabDatabase(`t-${Math.random()}`));
    const engine = new Engine(db);
    const outcome = await engine.importBlob(new Blob([CLAUDE_SAMPLE]), { jobId: 'i', fileName: 'c.jsonl', origin: 'file' }, () => undefined);
    const counts = async (id: string, counter: CounterId) => (await engine.countTokens('c', id, counter, () => undefined)).totals;
    return { db, engine, outcome, counts };
  };
}
