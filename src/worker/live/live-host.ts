/**
 * The live sessions' loop, served from their own worker (live.worker.ts): the agent session with
 * its model, read-only folder tools and token counter runs there, so the page's main thread only
 * renders what it reports and the tokenizer tables are loaded once, by the workers. Kept free of
 * Comlink and `self` so Node tests drive it directly.
 */
import { DEFAULT_MENTION_MODE, withMentions, type MentionMode } from '../../core/agent/mentions.ts';
import { createMtimeTracker, type MtimeTracker } from '../../core/agent/mtime.ts';
import { loadHookRunner } from '../../core/hooks/runner.ts';
import { browserHookWorker, type HookWorkerFactory } from '../sandbox/hook-worker.ts';
import { createScriptedModel } from '../../core/agent/scripted-model.ts';
import { scriptedSummarizer } from '../../core/agent/scripted-summarizer.ts';
import { createAgentSession } from '../../core/agent/session.ts';
import { createFolderTools } from '../../core/agent/tools/index.ts';
import type { AgentEvent, AgentModel, AgentSessionApi, Folder, ModelWait, TurnResult } from '../../core/agent/types.ts';
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { getCounter } from '../../core/tokens/counters.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { createAgentModel } from '../../llm/agent/agent-model.ts';
import { waitOf, type RetryWait } from '../../llm/remote/retry-notice.ts';
import { createWebLLMAgentModel } from '../../llm/agent/agent-webllm.ts';
import { inertResponse } from '../../llm/inert-output.ts';
import { createWebLLMSummarizer } from '../../llm/webllm/webllm.ts';
import { sharedModelEngine } from '../../llm/webllm/webllm-shared.ts';
import { createRemoteSummarizer } from '../../llm/remote/remote.ts';
import type { LiveModelSpec } from '../../store/live-model.ts';
import { PROMPTS } from '../engine/prompts.ts';
import { createFileListFolder, createHandleFolder, type DirectoryHandleLike, type FileLike } from '../../core/agent/tools/folder-access.ts';

/** Pause before each streamed piece of a scripted reply, ms: slow enough to watch it stream. */
export const SCRIPTED_DELAY_MS = 15;


/** The folder as it crosses to the worker: a directory handle, or the snapshot's files with their paths. */
export type LiveFolderSource =
  | { kind: 'handle'; handle: FileSystemDirectoryHandle }
  | { kind: 'files'; files: Array<{ path: string; file: File }> };

export interface LiveStart {
  id: string;
  folder: LiveFolderSource;
  config: LiveSessionConfig;
  model: LiveModelSpec;
  /** The stored journal of a session continued after a reload (empty for a new one). */
  journal: Entry[];
  /** Model calls the continued session made (`LiveSessionRow.modelCalls`): where a scripted model goes on. */
  modelCalls?: number;
  /** P8: the user's hook module (the Compact tab's), run in its sandbox around the session's compactions and branch moves. */
  hookSource?: string;
}

/** What the worker serves (Comlink wraps each method in a promise). */
export interface LiveHostApi {
  start(start: LiveStart, onEvent: (event: AgentEvent) => void): Promise<{ model: string }>;
  send(id: string, text: string): Promise<TurnResult>;
  editAndResend(id: string, entryId: string, text: string): Promise<TurnResult>;
  switchBranch(id: string, leafId: string): Promise<void>;
  stop(id: string): void;
  /** Ends the session in this worker: its turn is stopped and its port to the local model released. */
  close(id: string): void;
  leaf(id: string): string | null;
}

interface Hosted {
  api: AgentSessionApi;
  folder: Folder;
  gitignore: boolean;
  mentions: MentionMode;
  mtimes: MtimeTracker;
  controller?: AbortController;
  /** Lets go of the model's connection (the local model's port); nothing for the others. */
  release?: () => void;
}

export function folderOf(source: LiveFolderSource): Folder {
  if (source.kind === 'handle') return createHandleFolder(source.handle as unknown as DirectoryHandleLike);
  const files: FileLike[] = source.files.map(({ path, file }) => ({
    name: file.name, size: file.size, lastModified: file.lastModified, webkitRelativePath: path, slice: (start, end) => file.slice(start, end),
  }));
  return createFileListFolder(files);
}

/** What a session talks to; `release` closes a local model's port when the session ends. */
interface SessionModel {
  model: AgentModel;
  summarizer: Summarizer;
  release?: () => void;
}

/** The session's model; a scripted one continues after the steps the stored `journal` (and `calls` made) already took. */
export function modelOf(spec: LiveModelSpec, journal: readonly Entry[] = [], calls?: number, onWait?: (wait: ModelWait) => void): SessionModel {
  if (spec.kind === 'scripted') {
    return { model: createScriptedModel(spec.script, { delayMs: SCRIPTED_DELAY_MS, journal, ...(calls !== undefined ? { calls } : {}) }), summarizer: scriptedSummarizer(spec.script) };
  }
  if (spec.kind === 'webllm') return localModelOf(spec);
  // A reply waiting on a 429, a busy server or the network says so in the session's view.
  const retry = onWait ? { retry: { onRetry: (wait: RetryWait) => onWait(waitOf(wait, Date.now())) } } : {};
  return { model: createAgentModel(spec.config, retry), summarizer: createRemoteSummarizer(spec.config) };
}

/** The local WebLLM model through the port to the engine worker's copy: the agent and its summaries both use it. */
function localModelOf(spec: Extract<LiveModelSpec, { kind: 'webllm' }>): SessionModel {
  if (!spec.port) throw new Error(`The local model ${spec.modelId} has no connection to this tab's model engine: start the session again.`);
  const engine = sharedModelEngine(spec.port, spec.modelId, spec.appConfig);
  const summarizer = createWebLLMSummarizer({ modelId: spec.modelId, engineFactory: async () => engine });
  return {
    model: createWebLLMAgentModel({ modelId: spec.modelId, engine }),
    // Its replies made inert like a remote summarizer's before anything stores them.
    summarizer: { id: summarizer.id, label: summarizer.label, summarize: (request) => summarizer.summarize(request).then(inertResponse) },
    release: () => engine.release(),
  };
}

export class LiveHost implements LiveHostApi {
  private readonly sessions = new Map<string, Hosted>();

  /** `hookWorker` makes the sandbox worker of one hook call (in-process in tests). */
  constructor(private readonly hookWorker: HookWorkerFactory = browserHookWorker) {}

  async start(start: LiveStart, onEvent: (event: AgentEvent) => void): Promise<{ model: string }> {
    const { model, summarizer, release } = modelOf(start.model, start.journal, start.modelCalls, (wait) => onEvent({ type: 'wait', wait }));
    try {
      const folder = folderOf(start.folder);
      const counter = await getCounter(start.config.counter);
      const mtimes = createMtimeTracker();
      const source = start.hookSource?.trim();
      const hooks = source ? await loadHookRunner(() => this.hookWorker(source)) : undefined;
      const api = createAgentSession({
        ...(hooks ? { hooks } : {}),
        model, folder, counter, summarizer, prompts: PROMPTS, journal: start.journal, onEvent,
        tools: createFolderTools(folder, { gitignore: start.config.gitignore, mtimes }),
        strategy: { strategy: start.config.strategy, options: start.config.options },
        contextWindow: start.config.contextWindow,
      });
      // Opened again (after a reload, or after the engine worker was lost): the earlier copy ends.
      this.close(start.id);
      this.sessions.set(start.id, { api, folder, gitignore: start.config.gitignore, mentions: start.config.mentions ?? DEFAULT_MENTION_MODE, mtimes, ...(release ? { release } : {}) });
      return { model: model.model };
    } catch (error) {
      release?.();
      throw error;
    }
  }

  send(id: string, text: string): Promise<TurnResult> {
    return this.turn(id, async (session, signal) => session.api.send(await this.mentioned(session, text, signal), signal));
  }

  editAndResend(id: string, entryId: string, text: string): Promise<TurnResult> {
    return this.turn(id, async (session, signal) => session.api.editAndResend(entryId, await this.mentioned(session, text, signal), signal));
  }

  async switchBranch(id: string, leafId: string): Promise<void> {
    await this.turn(id, async (session, signal) => {
      await session.api.switchBranch(leafId, signal);
      return { status: 'done', calls: 0 };
    });
  }

  /** Stop: the model request and the running tool are aborted at once. */
  stop(id: string): void {
    const session = this.sessions.get(id);
    session?.controller?.abort();
    session?.api.stopBackground();
  }

  close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.controller?.abort();
    session.api.close();
    session.release?.();
  }

  /** Sessions open in this worker. */
  get size(): number {
    return this.sessions.size;
  }

  leaf(id: string): string | null {
    return this.sessions.get(id)?.api.leafId ?? null;
  }

  /** L8: a message's `@path` mentions get a system-reminder naming the files (or, chosen at setup, their contents). */
  private mentioned(session: Hosted, text: string, signal: AbortSignal): Promise<string> {
    return withMentions(text, session.folder, { prompts: PROMPTS, gitignore: session.gitignore, mtimes: session.mtimes, mode: session.mentions, signal });
  }

  private async turn(id: string, run: (session: Hosted, signal: AbortSignal) => Promise<TurnResult>): Promise<TurnResult> {
    const session = this.sessions.get(id);
    if (!session) throw new Error('This live session is not running: open its folder again.');
    if (session.controller) throw new Error('The session is still working on the previous request.');
    const controller = new AbortController();
    session.controller = controller;
    try {
      return await run(session, controller.signal);
    } catch (error) {
      // Stopped before the loop took the request (e.g. while the mentioned files were read).
      if (controller.signal.aborted) return { status: 'stopped', calls: 0 };
      throw error;
    } finally {
      session.controller = undefined;
    }
  }
}
