/**
 * The one interface every summary source implements (offline, WebLLM, remote APIs). A strategy
 * never imports a provider: the orchestrator hands each SummaryTask to the injected Summarizer.
 */
import { CancelledError } from '../cancel.ts';
import type { Entry } from '../journal/entry.ts';

export interface SummaryRequest {
  taskId: string;
  /** Prompt file id (prompts/<id>.md) and its rendered text, ready to send to a model. */
  promptId: string;
  prompt: string;
  /** The entries the summary covers, and the strategy's serialization of them (inside the prompt). */
  entries: readonly Entry[];
  serialized: string;
  previousSummary?: string;
  /** Extra template variables the strategy provided (abridged history, ...). */
  vars: Record<string, string>;
  maxTokens?: number;
  signal: AbortSignal;
}

export interface SummaryResponse {
  text: string;
  usage?: { input: number; output: number };
  /** Model that produced it ('offline' for the offline summarizer). */
  model: string;
}

export interface Summarizer {
  /** 'offline', 'webllm', 'openai', 'anthropic', ... */
  id: string;
  label: string;
  /** Prompt file id of the system message it sends with every request, if any (its version is recorded). */
  systemPrompt?: string;
  summarize(request: SummaryRequest): Promise<SummaryResponse>;
}

/** The line a strategy puts where it cut a summary to its token limit: a mark, never content (no file, no request). */
export const SUMMARY_CUT_MARK = '[summary cut to its token limit]';

/** A summarizer failed: the message says what happened and what to do. */
export class SummarizerError extends Error {
  override name = 'SummarizerError';
}

/** The summary took longer than the strategy's timeout. */
export class SummaryTimeoutError extends Error {
  override name = 'SummaryTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`Summary generation timed out after ${Math.round(timeoutMs / 1000)} s.`);
  }
}

/** The user cancelled a compaction: nothing was changed. */
export function compactionCancelled(): CancelledError {
  return new CancelledError('Compaction cancelled: nothing was changed.');
}
