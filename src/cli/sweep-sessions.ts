/**
 * The sessions `sweep` replays, and the same sessions loaded again in each of its threads. Files are
 * found as `eval` finds them (eval-files.ts); each conversation of a file is a session (the last
 * branch of each root conversation, and each subagent thread written in the file), named as eval
 * names its rows (`file`, `file#2`, `file#sidechain-1`). A conversation without a model call is not
 * a session; a file that cannot be read is skipped with its reason.
 */
import { relative } from 'node:path';
import type { FormatId, ImportResult } from '../core/import/types.ts';
import { withSubagentMeta } from '../core/import/subagent-meta.ts';
import { evalBranches } from '../core/replay/eval-branches.ts';
import type { SweepSession } from '../core/sweep/run.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { findEvalInputs, readSubagentMetaBeside, type SkippedFile } from './eval-files.ts';
import { rowName, threadsOf } from './eval-threads.ts';
import { importFile } from './load.ts';

/** Where a session is: its file, which thread of it (threadsOf order) and which leaf. */
export interface SweepSessionRef {
  name: string;
  file: string;
  thread: number;
  leafId: string;
}

export interface FoundSessions {
  sessions: SweepSessionRef[];
  skipped: SkippedFile[];
}

async function importWithMeta(file: string, format?: FormatId): Promise<ImportResult> {
  const imported = await importFile(file, format);
  const meta = readSubagentMetaBeside(file);
  return meta !== undefined ? withSubagentMeta(imported, meta) : imported;
}

/** Every session under the paths, in file order (see the module comment). */
export async function findSweepSessions(paths: readonly string[], format?: FormatId): Promise<FoundSessions> {
  const { files, skipped } = findEvalInputs(paths);
  const sessions: SweepSessionRef[] = [];
  for (const file of files) {
    const shown = relative(process.cwd(), file) || file;
    let imported: ImportResult;
    try {
      imported = await importWithMeta(file, format);
    } catch (error) {
      skipped.push({ file: shown, reason: (error as Error).message });
      continue;
    }
    threadsOf(imported).forEach((result, thread) => {
      const isInline = thread > 0;
      for (const branch of evalBranches(result.entries, 'last')) {
        if (branch.calls === 0) continue;
        const name = rowName({ file: shown, ...(branch.conversation !== undefined ? { conversation: branch.conversation } : {}), ...(isInline && result.meta.subagent?.agentId ? { thread: result.meta.subagent.agentId } : {}) });
        sessions.push({ name, file, thread, leafId: branch.leafId });
      }
    });
  }
  return { sessions, skipped };
}

/** Loads sessions by reference, each file imported and counted once while it is in use. */
export class SessionLoader {
  private readonly files = new Map<string, Promise<Array<{ result: ImportResult; totals: ArrayLike<number> }>>>();

  constructor(private readonly counter: CounterId, private readonly format?: FormatId) {}

  async load(ref: SweepSessionRef): Promise<SweepSession> {
    let threads = this.files.get(ref.file);
    if (!threads) {
      // Keep a few files: a thread works through the sessions in file order.
      if (this.files.size >= 4) this.files.delete(this.files.keys().next().value!);
      threads = this.read(ref.file);
      this.files.set(ref.file, threads);
    }
    const thread = (await threads)[ref.thread];
    if (!thread) throw new Error(`${ref.name}: the file no longer holds this conversation.`);
    return { name: ref.name, journal: thread.result.entries, totals: thread.totals, leafId: ref.leafId };
  }

  private async read(file: string) {
    const counter = await getCounter(this.counter);
    const imported = await importWithMeta(file, this.format);
    return threadsOf(imported).map((result) => ({ result, totals: countEntries(result.entries, counter).totals }));
  }
}
