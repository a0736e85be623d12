/**
 * What the UI asks for: import a file, a sample or the demo; count tokens; cancel. Each call runs
 * a worker job, mirrors its progress into the store, and turns failures into a notice the user reads.
 */
import type { DemoLanguage } from '../core/demo/generate-session.ts';
import type { FormatId } from '../core/import/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { engine, newJobId, proxy } from '../worker/client.ts';
import type { CompactionRow } from '../db/schema.ts';
import type { CompactRequest, ImportOutcome, ImportRequest, PlanPreview } from '../worker/engine/protocol.ts';
import { countsKey } from './counts-slice.ts';
import { isQuotaError } from '../db/storage-errors.ts';
import { requestPersistenceOnce } from './storage-persistence.ts';
import { useAppStore } from './store.ts';

const store = () => useAppStore.getState();

/** Listeners the e2e test API subscribes to. */
export const importListeners = new Set<(outcome: ImportOutcome) => void>();
export const runListeners = new Set<(row: CompactionRow) => void>();

/** `background`: the first-visit demo, which must not take the view from a file the user opened meanwhile. */
async function runImport(label: string, fileName: string, run: (jobId: string) => Promise<ImportOutcome>, background = false): Promise<ImportOutcome | undefined> {
  const jobId = newJobId('import');
  store().startJob(jobId, label);
  store().setNotice(undefined);
  try {
    const outcome = await run(jobId);
    // The reply carries the counts the import stored: the opened conversation needs no second request.
    store().putCounts(outcome.counts);
    // Imports count in slices, so two of them interleave: the one the user started keeps the view.
    if (!background || store().selectedId === undefined) store().select(outcome.conversation.id);
    const { skippedLines, blankLines } = outcome.report;
    if (skippedLines > 0) store().setNotice({ fileName, issues: outcome.conversation.issues, skipped: skippedLines, blankLines });
    for (const listener of importListeners) listener(outcome);
    return outcome;
  } catch (error) {
    // Imports count before they write: only a cancel that came after the write leaves something stored.
    const saved = error instanceof Error && error.name === 'SavedBeforeCancelError';
    store().setNotice({ fileName, error: errorMessage(error), nothingChanged: !saved, ...(isQuotaError(error) ? { storageFull: true } : {}) });
    return undefined;
  } finally {
    store().endJob(jobId);
  }
}

export function importFile(file: File, options: { format?: FormatId; replaceId?: string; subagentMeta?: ImportRequest['subagentMeta']; kimiFolder?: ImportRequest['kimiFolder']; kimiCodeAgent?: ImportRequest['kimiCodeAgent']; kimiCodeParents?: ImportRequest['kimiCodeParents']; droidSettings?: ImportRequest['droidSettings']; droidTaskCall?: ImportRequest['droidTaskCall']; copilotWorkspace?: ImportRequest['copilotWorkspace'] } = {}): Promise<ImportOutcome | undefined> {
  void requestPersistenceOnce();
  return runImport(`Importing ${file.name}`, file.name, (jobId) => {
    const request: ImportRequest = { jobId, fileName: file.name, origin: 'file', ...options };
    return engine().importBlob(file, request, proxy((progress) => store().updateJob(progress)));
  });
}

/** Fetches a bundled sample from the site (relative to BASE_URL) and imports it. */
export function importSample(path: string, title: string): Promise<ImportOutcome | undefined> {
  const fileName = path.split('/').pop() ?? path;
  void requestPersistenceOnce();
  return runImport(`Importing ${title}`, fileName, async (jobId) => {
    const response = await fetch(`${import.meta.env.BASE_URL}${path}`);
    if (!response.ok) throw new Error(`Could not load the sample ${fileName}: HTTP ${response.status}.`);
    const blob = await response.blob();
    const request: ImportRequest = { jobId, fileName, origin: 'sample', title };
    return engine().importBlob(blob, request, proxy((progress) => store().updateJob(progress)));
  });
}

/** The first-visit seeding runs it in the background; the Demo button passes `userStarted` so it opens. */
/** The generated demo session: English, or with `language: 'mixed'` its second example, where most prompts are Chinese or Japanese. */
export function importDemo({ userStarted = false, language = 'english' }: { userStarted?: boolean; language?: DemoLanguage } = {}): Promise<ImportOutcome | undefined> {
  const mixed = language === 'mixed';
  const fileName = mixed ? 'demo-session-zh-ja.jsonl' : 'demo-session.jsonl';
  return runImport('Generating the demo session', fileName, (jobId) => {
    const request = { jobId, fileName, origin: 'demo' as const, language, title: mixed ? 'Demo: a coding-agent session in Chinese and Japanese (generated)' : 'Demo: a coding-agent session (generated)' };
    return engine().importDemo(request, proxy((progress) => store().updateJob(progress)));
  }, !userStarted);
}

export function cancelJob(jobId: string): void {
  void engine().cancel(jobId);
}

const pendingCounts = new Set<string>();

/**
 * Counts tokens for a conversation with a counter (cached in the worker and in Dexie). `quiet`
 * (default false) shows no job bar: a live session's journal is counted again at each new entry.
 */
export async function ensureCounts(conversationId: string, importId: string, counter: CounterId, { quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  const key = countsKey(conversationId, importId, counter);
  if (store().counts[key] || pendingCounts.has(key)) return;
  pendingCounts.add(key);
  const jobId = newJobId('count');
  if (!quiet) store().startJob(jobId, `Counting tokens (${counter})`);
  try {
    const counts = await engine().countTokens(jobId, conversationId, counter, proxy((progress) => !quiet && store().updateJob({ ...progress, jobId })));
    store().putCounts(counts);
  } catch (error) {
    store().putCountError(key, errorMessage(error));
  } finally {
    pendingCounts.delete(key);
    if (!quiet) store().endJob(jobId);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Previews a compaction plan (nothing is stored). */
export function planCompaction(request: Omit<CompactRequest, 'jobId'>): Promise<PlanPreview> {
  return engine().planCompaction({ ...request, jobId: newJobId('plan') });
}

/** Runs a compaction; the run is stored and returned, or the error says why nothing changed. */
export async function runCompactionJob(request: Omit<CompactRequest, 'jobId'>): Promise<CompactionRow> {
  const jobId = newJobId('compact');
  store().startJob(jobId, `Compacting with ${request.strategy}`);
  try {
    const row = await engine().compact({ ...request, jobId }, proxy((progress) => store().updateJob({ ...progress, jobId })));
    for (const listener of runListeners) listener(row);
    return row;
  } finally {
    store().endJob(jobId);
  }
}
