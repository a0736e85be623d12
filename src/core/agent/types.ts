/**
 * The live agent's injected parts: a model that answers one request (streaming, abortable, with
 * tool calls), read-only tools, and the folder they read. The loop (`session.ts`) only sees these
 * interfaces, so the browser (File System Access, a directory snapshot), Node (fs) and the tests
 * (fakes, the scripted model) each supply their own.
 */
import { CancelledError } from '../cancel.ts';
import type { PromptLibrary } from '../compaction/prompts.ts';
import type { CompactionProgress, CompactionRecord } from '../compaction/run.ts';
import type { Summarizer } from '../compaction/summarizer.ts';
import type { CompactedContext, ContextEntry, Plan, StrategyId } from '../compaction/types.ts';
import type { Entry, Usage } from '../journal/entry.ts';
import type { HookRunner } from '../hooks/user-hooks.ts';
import type { TokenCounter } from '../tokens/counters.ts';

/** A tool as the model is told about it: name, one-paragraph description, JSON Schema of its input. */
export interface AgentToolSpec {
  name: string;
  /** What the model reads about the tool: prompts/tool-<name>.md, filled in by describeTool (tool-prompts.ts). */
  description: string;
  /** JSON Schema of the arguments; their descriptions come from the same prompt file. */
  parameters: Record<string, unknown>;
  /** The tool's own figures for its prompt file's placeholders (a cap set in options, ...). */
  promptVars?: Record<string, string>;
}

/** One model request: the system prompt, the tools, and the context (journal entries, summaries, rewrites). */
export interface ModelRequest {
  system: string;
  tools: readonly AgentToolSpec[];
  context: readonly ContextEntry[];
  maxOutputTokens?: number;
  signal: AbortSignal;
}

/** What streams while a reply is made. */
export type ModelDelta =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call'; id: string; name: string };

export interface ModelToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments; the raw text when the model sent something that is not JSON. */
  input: unknown;
}

export interface ModelReply {
  text: string;
  thinking?: string;
  toolCalls: ModelToolCall[];
  /** As the provider reported it; absent when it reported nothing. */
  usage?: Usage;
  /** Why the model stopped: finished, wants tools run, or hit its output limit. */
  stop: 'end' | 'tool_use' | 'length';
  /** Model name the provider answered with. */
  model: string;
}

export interface AgentModel {
  /** Provider kind ('openai', 'anthropic', 'webllm', 'scripted', 'fake'). */
  kind: string;
  /** The model's name, for the record and the price table. */
  model: string;
  /**
   * One request. Rejects with `ContextOverflowError` when the provider says the prompt is longer
   * than its window, with `CancelledError` when `request.signal` aborts (nothing partial is
   * returned as complete), and with another Error (message for the user) on any other failure.
   */
  complete(request: ModelRequest, onDelta?: (delta: ModelDelta) => void): Promise<ModelReply>;
}

/** The provider refused the prompt as longer than the model's context window. */
export class ContextOverflowError extends Error {
  override name = 'ContextOverflowError';
}

/** The request was stopped by the user (Stop, or the signal) before the reply was complete. */
export function modelStopped(message = 'Stopped: the reply was not finished and is not kept.'): CancelledError {
  return new CancelledError(message);
}

/** What a tool run gives back to the model and to the session's record. */
export interface ToolOutcome {
  ok: boolean;
  /** The text the model receives (already cut to the L3 limits). */
  text: string;
  /** The folder path the call was about, when it names one (for the record and `--json`). */
  path?: string;
  /** Why it failed, in one sentence (absent when `ok`). */
  error?: string;
}

export interface ToolContext {
  signal: AbortSignal;
}

export interface AgentTool {
  spec: AgentToolSpec;
  run(input: unknown, context: ToolContext): Promise<ToolOutcome>;
}

/** A directory entry, as listed. */
export interface FolderEntry {
  name: string;
  kind: 'file' | 'directory' | 'symlink';
}

export interface FolderStat {
  kind: 'file' | 'directory' | 'symlink';
  /** Bytes (0 for a directory). */
  size: number;
  /** Last modification, epoch ms (0 when the source cannot say). */
  mtimeMs: number;
}

/**
 * A folder the user picked, read-only. Paths are relative to its root, '/'-separated, with no
 * leading '/', no '.' or '..' segments (the tools normalize and confine them before calling);
 * '' is the root. An implementation never follows a symlink out of the root: `realPath` says
 * where one leads (relative to the root) or `undefined` when it leads outside or cannot be told.
 */
export interface Folder {
  /** The folder's own name, for the UI and the prompt. */
  name: string;
  /** True when it is a copy taken at pick time (a directory `<input>`), not the live folder. */
  snapshot: boolean;
  list(path: string): Promise<FolderEntry[]>;
  /** `undefined` when nothing is at `path`. */
  stat(path: string): Promise<FolderStat | undefined>;
  /** Bytes of a file, from `offset` (default 0), at most `length` bytes (default: to the end). */
  read(path: string, range?: { offset?: number; length?: number }): Promise<Uint8Array>;
  realPath?(path: string): Promise<string | undefined>;
}

/** How the session is configured: the same strategy configuration as a replay, plus the window. */
export interface AgentSessionOptions {
  model: AgentModel;
  /** The read-only tools over the folder (`query_history` and `summarize_context` are added by the loop). */
  tools: readonly AgentTool[];
  folder: Folder;
  strategy: { strategy: StrategyId; options: Record<string, unknown> };
  /** Context window, tokens of `counter`. */
  contextWindow: number;
  counter: TokenCounter;
  /** Makes the strategy's summaries (usually the session's own model as a Summarizer, or offline). */
  summarizer: Summarizer;
  prompts: PromptLibrary;
  /** The journal of a session that is resumed (after a reload): entries in order, the tree by `parentId`. */
  journal?: readonly Entry[];
  /** Clock, epoch ms (injected in tests; also drives the 120 s summary fallback, L10). */
  now?: () => number;
  /**
   * How long one summary may take before the strategy's fallback answers (layered: hard
   * truncation, L10). Default: DEFAULT_SUMMARY_TIMEOUT_MS (120 s, seed 002 §E2). Unit: ms.
   */
  summaryTimeoutMs?: number;
  /** Model calls one user turn may make before it is ended as failed (a model that never stops calling tools). Default 100. */
  maxCallsPerTurn?: number;
  /**
   * Turns the text the user typed into the user message (L8: `@file` mentions get a
   * system-reminder with the files appended). Default: `withMentions` over `folder` with default
   * tool options; pass your own to share the tools' `.gitignore` choice and mtime tracker (L9).
   */
  prepareInput?: (text: string, signal: AbortSignal) => Promise<string>;
  /**
   * P8: the user's hooks, run in their sandbox. `before-compact` / `after-compact` around every
   * compaction of the loop; `before-fork` on a branch move, where it may write the branch summary
   * itself or cancel the move. Default: none.
   */
  hooks?: HookRunner;
  onEvent?: (event: AgentEvent) => void;
}

/** A model request waiting before it is sent again, as the page shows it ("rate limited — retrying in 12 s"). */
export interface ModelWait {
  /** 'rate-limit' for a 429, 'busy' for 5xx/529/408/409, 'network' while offline (sent again once online). */
  reason: 'rate-limit' | 'busy' | 'network';
  /** When the next attempt starts (epoch ms). */
  until: number;
  /** The attempt about to be made: 1 for the first retry. */
  attempt: number;
}

/** What the loop reports as it runs; `entry` events are the journal to store (in order, never rewritten). */
export type AgentEvent =
  | { type: 'entry'; entry: Entry }
  | { type: 'delta'; delta: ModelDelta }
  | { type: 'call'; call: number; contextTokens: number; usage?: Usage; model: string }
  | { type: 'tool'; call: ModelToolCall; outcome: ToolOutcome }
  | { type: 'progress'; progress: CompactionProgress }
  | {
    type: 'compaction'; atCall: number; trigger: string; tokensBefore: number; tokensAfter: number; record: CompactionRecord; context: CompactedContext;
    /** The strategy's plan: one fate per input entry (the branch's model context), the cut, summaries and compressions. */
    plan: Plan;
    /** Journal index of each input entry (`plan.fates` are in this order). */
    journalIndex: number[];
    /** Summary texts by the plan's task id. */
    summaries: Record<string, string>;
  }
  | { type: 'branch-summary'; fromLeafId: string; toEntryId: string; entry: Entry }
  | { type: 'note'; text: string }
  /** The model's reply waits before a retry (reported by the model's host, not the loop). */
  | { type: 'wait'; wait: ModelWait }
  | { type: 'state'; busy: boolean; phase: 'idle' | 'calling' | 'tool' | 'compacting' };

/** The outcome of one user turn. */
export interface TurnResult {
  /** 'done' the model finished; 'stopped' the user stopped; 'failed' an error the notes explain (e.g. "recovery failed"). */
  status: 'done' | 'stopped' | 'failed';
  calls: number;
  error?: string;
}

/** A live session: one conversation tree, driven one user turn at a time. */
export interface AgentSessionApi {
  /** The journal so far (every branch), in the order entries were made. */
  readonly entries: readonly Entry[];
  /** The entry the next turn continues from (the current branch's leaf). */
  readonly leafId: string | null;
  /** Runs one user turn to its end (tool calls, compactions, retries) on the current branch. */
  send(text: string, signal: AbortSignal): Promise<TurnResult>;
  /** P7: a new branch from the parent of the user entry `entryId`, with `text` in its place. */
  editAndResend(entryId: string, text: string, signal: AbortSignal): Promise<TurnResult>;
  /** P7: moves to another leaf; the abandoned branch is summarized into a branch-summary entry. */
  switchBranch(leafId: string, signal: AbortSignal): Promise<void>;
  /** Stops a compaction the trigger's timer started between turns (A1); nothing when none runs. */
  stopBackground(): void;
  /** Ends the session: its timer is disarmed and a compaction it started is stopped. */
  close(): void;
}
