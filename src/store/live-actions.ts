/**
 * What the user does with a live session: start one over a folder, continue it after a reload
 * (with the stored journal), send a request, stop it, edit and resend an earlier message, move to
 * another branch, export it. The loop runs in the live-session worker (live-host.ts); this page
 * side writes every journal entry it reports to Dexie the moment it arrives, in order, so a reload
 * loses at most the reply being streamed, and mirrors the rest into the live store.
 */
import * as Comlink from 'comlink';
import { toPiSessionJsonl } from '../core/agent/pi-export.ts';
import type { AgentEvent, TurnResult } from '../core/agent/types.ts';
import type { Entry } from '../core/journal/entry.ts';
import { loadEntries } from '../db/conversations.ts';
import { db } from '../db/db.ts';
import type { LiveSessionConfig } from '../db/live-session-row.ts';
import { appendLiveEntry, countLiveCall, createLiveSession, liveSession, storeLiveRun, updateLiveFolder } from '../db/live-sessions.ts';
import type { EntryRow } from '../db/schema.ts';
import { errorMessage, runListeners } from './actions.ts';
import { liveRun } from './live-events.ts';
import { resolveLiveModel, type LiveModelSpec } from './live-model.ts';
import { IDLE_RUNTIME, useLiveStore } from './live-store.ts';
import { useAppStore } from './store.ts';
import type { PickedFolder } from './live-folder.ts';
import type { LiveFolderSource, LiveHostApi, LiveStart } from '../worker/live/live-host.ts';
import { connectLiveModel, onEngineLost, releaseEnginePorts, releaseLiveModel, transferables, type ConnectedModel, type LocalModelProgress } from './live-local-model.ts';
import { createLiveStream, nextFrame, type LiveStream } from './live-stream.ts';
import { browserLiveWorkerClient, type LiveWorkerLostError } from '../worker/live/live-client.ts';

interface Attached {
  config: LiveSessionConfig;
  /** The session's leaf as last reported by the worker. */
  leaf: string | null;
  busy: boolean;
  /** The writes of this session's entries and runs, in order. */
  writes: Promise<void>;
  /** Set when a write failed: later entries are not written (the journal must stay in order). */
  writeError?: string;
  /** A session on the local model stops listening for the engine worker's loss. */
  dropOnEngineLoss?: () => void;
  /** The engine worker's key for the local model's port the live worker holds. */
  portKey?: string;
  /** Its events into the store: streamed pieces at most once per frame. */
  stream: LiveStream;
}

const attached = new Map<string, Attached>();
const live = () => useLiveStore.getState();
const app = () => useAppStore.getState();

/** The worker is made at the first live session of the tab and kept for the next ones; made again after it died. */
const liveWorkers = browserLiveWorkerClient(releaseEnginePorts);
const liveHost = (): Comlink.Remote<LiveHostApi> => liveWorkers.host();
liveWorkers.onLost(workerLost);

/** Test-only (the test API's crashLiveWorker): makes the live worker throw an uncaught error, as a real crash would. */
export function crashLiveWorkerForTest(): void {
  liveWorkers.post({ foldlabTest: 'crash' });
}

export function isAttached(conversationId: string): boolean {
  return attached.has(conversationId);
}

/** The session's leaf in this tab (the entry the next turn continues from). */
export function liveLeaf(conversationId: string): string | null | undefined {
  return attached.get(conversationId)?.leaf;
}

/** What crosses to the worker: the handle, or the snapshot's files with their paths. */
function folderSource(picked: PickedFolder): LiveFolderSource {
  if (picked.handle) return { kind: 'handle', handle: picked.handle };
  if (!picked.files) throw new Error('The folder has neither a handle nor files: pick it again.');
  return { kind: 'files', files: picked.files.map((file, i) => ({ path: picked.paths?.[i] ?? (file.webkitRelativePath || file.name), file })) };
}

/** Creates the session's conversation and opens it on its Live tab. A model that cannot be made (or a local one that cannot load) stores nothing. */
export async function startLiveSession(start: { title: string; picked: PickedFolder; config: LiveSessionConfig; onModelProgress?: LocalModelProgress }): Promise<string> {
  const model = await connectLiveModel(await resolveLiveModel(start.config.model), start.onModelProgress);
  const { folder, handle } = start.picked;
  const row = await createLiveSession(db, {
    title: start.title, config: start.config, ...(model.kind === 'remote' ? { model: model.config.model } : model.kind === 'webllm' ? { model: model.modelId } : {}),
    folder: { name: folder.name, snapshot: folder.snapshot, ...(handle ? { handle } : {}) },
  }).catch((error: unknown) => {
    releaseLiveModel(model);
    throw error;
  });
  await attach(row.id, start.picked, start.config, [], model);
  app().select(row.id);
  app().setTab('live');
  return row.id;
}

/** After a reload: the same session over the folder picked (or permitted) again, continuing its stored journal. */
export async function resumeLiveSession(conversationId: string, picked: PickedFolder, onModelProgress?: LocalModelProgress): Promise<void> {
  const row = await liveSession(db, conversationId);
  if (!row) throw new Error('This conversation is not a live session: it has no live-session settings.');
  const model = await connectLiveModel(await resolveLiveModel(row.config.model), onModelProgress);
  const { folder, handle } = picked;
  let journal: Entry[];
  try {
    if (row.folder.snapshot || handle) await updateLiveFolder(db, conversationId, { name: folder.name, snapshot: folder.snapshot, ...(handle ? { handle } : {}) });
    journal = (await loadEntries(db, conversationId)).map(stripRow);
  } catch (error) {
    releaseLiveModel(model);
    throw error;
  }
  await attach(conversationId, picked, row.config, journal, model, row.modelCalls);
}

async function attach(id: string, picked: PickedFolder, config: LiveSessionConfig, journal: Entry[], model: ConnectedModel, modelCalls?: number): Promise<void> {
  const stream = createLiveStream((change) => live().patch(id, change), nextFrame);
  const { portKey, ...spec } = model;
  const session: Attached = { config, leaf: journal.at(-1)?.id ?? null, busy: false, writes: Promise.resolve(), stream, ...(portKey ? { portKey } : {}) };
  // Opened again: the worker replaces its earlier copy (and releases that one's model port).
  const earlier = attached.get(id);
  earlier?.dropOnEngineLoss?.();
  attached.set(id, session);
  if (model.kind === 'webllm') session.dropOnEngineLoss = onEngineLost(() => engineLost(id));
  try {
    // P8: the hook module of the Compact tab, as it is when the session starts or is opened again.
    const hookSource = app().hookSource.trim();
    const start: LiveStart = {
      id, folder: folderSource(picked), config, model: spec as LiveModelSpec, journal, ...(modelCalls !== undefined ? { modelCalls } : {}), ...(hookSource ? { hookSource } : {}),
    };
    // Kept by the page until the worker lets go of the port: if the worker dies, the page releases it.
    if (portKey) liveWorkers.hold(portKey);
    const started = await liveHost().start(Comlink.transfer(start, transferables(model)), Comlink.proxy((event: AgentEvent) => onEvent(id, event)));
    if (earlier?.portKey) liveWorkers.forget(earlier.portKey);
    session.leaf = await liveHost().leaf(id);
    live().patch(id, { ...IDLE_RUNTIME, error: undefined, model: started.model });
  } catch (error) {
    // The worker released the port it was given (or died, and the page released it).
    if (portKey) liveWorkers.forget(portKey);
    session.dropOnEngineLoss?.();
    if (attached.get(id) === session) attached.delete(id);
    throw error;
  }
}

/** The live worker died: every session it ran is stopped with the reason, and offered to open again (on a fresh worker). */
function workerLost(error: LiveWorkerLostError): void {
  for (const [id, session] of attached) {
    session.dropOnEngineLoss?.();
    session.stream.flush();
    attached.delete(id);
    live().patch(id, { busy: false, phase: 'idle', streaming: '', thinking: '', progress: undefined, error: error.message });
  }
}

/** The engine worker stopped: the local model's port is dead, so the session is stopped and offered to open again. */
function engineLost(id: string): void {
  const session = attached.get(id);
  if (!session) return;
  session.dropOnEngineLoss?.();
  session.stream.flush();
  // The engine worker that served the port is gone, and its keys with it.
  if (session.portKey) liveWorkers.forget(session.portKey);
  void liveHost().close(id);
  attached.delete(id);
  live().patch(id, { busy: false, phase: 'idle', streaming: '', thinking: '', error: 'The engine holding the local model stopped: open the session again to reload the model.' });
}

/**
 * Closes the session in this tab: a running turn is stopped, the local model's port is released
 * in both workers, and the Live tab offers to open it again. The stored journal is kept.
 */
export async function closeLiveSession(id: string): Promise<void> {
  const session = attached.get(id);
  if (!session) return;
  session.dropOnEngineLoss?.();
  session.stream.flush();
  attached.delete(id);
  await liveHost().close(id);
  if (session.portKey) liveWorkers.forget(session.portKey);
  await session.writes;
  live().detach(id);
}

function stripRow(row: EntryRow): Entry {
  const { conversationId: _id, ...entry } = row;
  return entry;
}

function onEvent(id: string, event: AgentEvent): void {
  const session = attached.get(id);
  if (!session) return;
  session.stream.event(event);
  if (event.type === 'entry') {
    session.leaf = event.entry.id;
    write(session, id, () => appendLiveEntry(db, id, event.entry));
  } else if (event.type === 'call') {
    write(session, id, () => countLiveCall(db, id));
  } else if (event.type === 'compaction') {
    const run = liveRun(event, { conversationId: id, strategy: session.config.strategy, counter: session.config.counter, contextWindow: session.config.contextWindow, leafId: session.leaf, createdAt: Date.now() });
    write(session, id, async () => {
      const row = await storeLiveRun(db, run);
      for (const listener of runListeners) listener(row);
    });
  }
}

function write(session: Attached, id: string, job: () => Promise<void>): void {
  session.writes = session.writes.then(async () => {
    if (session.writeError) return;
    try {
      await job();
    } catch (error) {
      session.writeError = `Saving the session failed: ${errorMessage(error)} Later entries are not saved; export the session to keep them.`;
      live().patch(id, { error: session.writeError });
    }
  });
}

/** Runs one turn (send, edit and resend, or a branch move) in the worker. */
async function turn(id: string, run: (remote: Comlink.Remote<LiveHostApi>) => Promise<TurnResult | void>): Promise<void> {
  const session = attached.get(id);
  if (!session) throw new Error('The live session is not running in this tab: open its folder again.');
  if (session.busy) return;
  session.busy = true;
  session.stream.begin();
  live().patch(id, { tools: [], error: undefined, lastStatus: undefined, busy: true, phase: 'calling' });
  try {
    const result = await run(liveHost());
    await session.writes;
    if (result) live().patch(id, { lastStatus: result.status, ...(result.error ? { error: result.error } : {}) });
  } catch (error) {
    live().patch(id, { error: errorMessage(error) });
  } finally {
    session.stream.flush();
    // A session stopped meanwhile (its worker died, or it was closed) has no leaf in the worker.
    if (attached.get(id) === session) session.leaf = await liveHost().leaf(id).catch(() => session.leaf);
    session.busy = false;
    live().patch(id, { busy: false, phase: 'idle', streaming: '', thinking: '', progress: undefined });
    if (session.leaf) app().setBranchLeaf(id, session.leaf);
  }
}

export function sendLive(id: string, text: string): Promise<void> {
  return turn(id, (remote) => remote.send(id, text));
}

export function editAndResendLive(id: string, entryId: string, text: string): Promise<void> {
  return turn(id, (remote) => remote.editAndResend(id, entryId, text));
}

export function switchLiveBranch(id: string, leafId: string): Promise<void> {
  return turn(id, (remote) => remote.switchBranch(id, leafId));
}

/** Stop: the model request is aborted at once; the unfinished reply stays on screen as it was shown, and is not kept. */
export function stopLive(id: string): void {
  attached.get(id)?.stream.stop();
  void liveHost().stop(id);
}

/** The stored journal as pi session JSONL v3, with a file name. */
export async function exportLiveSession(id: string): Promise<{ fileName: string; text: string; entries: number }> {
  const conversation = await db.conversations.get(id);
  if (!conversation) throw new Error('The live session was deleted.');
  await attached.get(id)?.writes;
  const entries = (await loadEntries(db, id)).map(stripRow);
  const text = toPiSessionJsonl(entries, {
    sessionId: id, createdAt: conversation.importedAt, title: conversation.title,
    ...(conversation.meta.cwd ? { cwd: conversation.meta.cwd } : {}), ...(conversation.meta.model ? { model: conversation.meta.model } : {}),
  });
  const slug = conversation.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'live-session';
  return { fileName: `${slug}.pi.jsonl`, text, entries: entries.length };
}
