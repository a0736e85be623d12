/**
 * Runs a sweep from the Sweep tab (points from the form's ranges, the summarizer of Settings, the
 * page's counter and window), mirrors its progress into the store, and opens the saved sweep when
 * it ends; a cancel keeps the points done. Rescores or deletes a saved sweep, opens a point's replay
 * in Compare. A failure leaves a message the tab shows.
 */
import { sweepPoints } from '../core/sweep/points.ts';
import type { RetentionWeights } from '../core/sweep/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { db } from '../db/db.ts';
import type { ConversationRow } from '../db/schema.ts';
import type { SweepRow } from '../db/sweep-row.ts';
import { deleteSweep, setSweepWeights } from '../db/sweeps.ts';
import { engine, newJobId, proxy } from '../worker/client.ts';
import { pageSweepWorkers } from '../worker/sweep/sweep-client.ts';
import { errorMessage } from './actions.ts';
import { runCompare } from './compare-actions.ts';
import { useAppStore } from './store.ts';
import { modelLabel, summarizerFields } from './summarizer-request.ts';
import { runSweepJob } from './sweep-job.ts';

const store = () => useAppStore.getState();
let running: AbortController | undefined;

export interface SweepStart {
  strategy: string;
  vary: string[];
  /** Draw this many points at random from the ranges instead of the grid. */
  random?: number;
  sessions: ConversationRow[];
  counter: CounterId;
  contextWindow: number;
  weights: RetentionWeights;
}

/** Runs the sweep; resolves to the saved sweep's id, or undefined when nothing was saved. */
export async function runSweep(start: SweepStart): Promise<string | undefined> {
  if (store().sweepRun) {
    store().setSweepMessage({ kind: 'error', text: 'A sweep is already running: wait for it or cancel it first.' });
    return undefined;
  }
  const jobId = newJobId('sweep');
  const controller = (running = new AbortController());
  store().setSweepMessage(undefined);
  store().setSweepRun({ jobId, strategy: start.strategy, startedAt: Date.now() });
  const end = store().beginActivity(`Sweeping ${start.strategy} over ${start.sessions.length} session${start.sessions.length === 1 ? '' : 's'}`);
  try {
    const points = sweepPoints({ strategy: start.strategy, vary: start.vary, contextWindow: start.contextWindow, ...(start.random !== undefined ? { random: start.random } : {}) });
    const fields = await summarizerFields();
    if (fields.summarizer === 'webllm') throw new Error('A sweep replays in several workers at once, and the local model runs in one: choose the offline summarizer or a remote model in Settings > Models.');
    const summarizerLabel = modelLabel(store()) ?? 'offline';
    const { row, cancelled } = await runSweepJob(
      {
        name: `${start.strategy}: ${start.vary.join(' ')}${start.random !== undefined ? ` (${start.random} random)` : ''}`,
        strategy: start.strategy,
        plan: { vary: start.vary, ...(start.random !== undefined ? { random: start.random, seed: 1 } : {}) },
        points,
        sessions: start.sessions.map((c) => ({ conversationId: c.id, importId: c.importId, title: c.title })),
        counter: start.counter,
        contextWindow: start.contextWindow,
        summarizer: { summarizer: fields.summarizer, ...(fields.remote ? { remote: fields.remote } : {}), ...(fields.timeoutMs ? { timeoutMs: fields.timeoutMs } : {}) },
        summarizerLabel,
        weights: start.weights,
      },
      {
        db,
        ...pageSweepWorkers(),
        countTokens: (conversationId, counter) => engine().countTokens(`${jobId}-count`, conversationId, counter, proxy(() => undefined)),
      },
      controller.signal,
      (progress) => store().setSweepProgress(jobId, progress),
    );
    if (row) store().openSweep(row.id);
    if (cancelled) {
      store().setSweepMessage({ kind: 'cancelled', text: row ? `Cancelled: the ${row.points.length} point${row.points.length === 1 ? '' : 's'} finished before it ${row.points.length === 1 ? 'is' : 'are'} saved and shown.` : 'Cancelled before any point finished: nothing was saved.' });
    }
    return row?.id;
  } catch (error) {
    store().setSweepMessage({ kind: 'error', text: `The sweep could not run: ${errorMessage(error)}` });
    return undefined;
  } finally {
    end();
    if (running === controller) running = undefined;
    if (store().sweepRun?.jobId === jobId) store().setSweepRun(undefined);
  }
}

export function cancelSweep(): void {
  running?.abort();
}

/** Scores the saved sweep with `weights` from now on. */
export async function saveSweepWeights(id: string, weights: RetentionWeights): Promise<void> {
  try {
    await setSweepWeights(db, id, weights);
  } catch (error) {
    store().setSweepMessage({ kind: 'error', text: errorMessage(error) });
  }
}

/** Removes a saved sweep and its points (the sessions stay); rejects when the database refuses. */
export function deleteSavedSweep(id: string): Promise<void> {
  return deleteSweep(db, id);
}

/**
 * Opens point `index` of a saved sweep in Compare on one of its sessions: the point becomes
 * Compare's one configuration, replayed with the sweep's counter and window, and shown when done.
 */
export async function openPointInCompare(row: SweepRow, index: number, conversationId: string): Promise<void> {
  const options = row.points[index];
  const session = row.sessions.find((s) => s.conversationId === conversationId);
  if (!options || !session) return;
  const conversation = await db.conversations.get(conversationId);
  if (!conversation) {
    store().setSweepMessage({ kind: 'error', text: `The session "${session.title}" is no longer in the library.` });
    return;
  }
  const values = Object.fromEntries(Object.entries(options).map(([name, value]) => [name, String(value)]));
  const label = `${row.strategy} · sweep point ${index}`;
  useAppStore.setState({ compareConfigs: [{ key: `sweep-${Date.now().toString(36)}-${index}`, strategy: row.strategy, label, values }] });
  store().select(conversationId);
  store().setTab('compare');
  await runCompare(
    { conversationId, counter: row.counter, contextWindow: row.contextWindow, configs: [{ strategy: row.strategy, options, label }] },
    { importId: conversation.importId, name: `${label} (${row.name})`, labels: [label] },
  );
}
