/**
 * What the remote summarizers (Anthropic, OpenAI-compatible) share: how they reach their server
 * and report progress, and the summarizer made from one attempt: retried, cut down to fit the
 * model's window on an overflow, and its text made inert before anyone shows it.
 */
import type { Summarizer, SummaryRequest, SummaryResponse } from '../../core/compaction/summarizer.ts';
import type { ProviderRef } from './errors.ts';
import { StreamMeter, type TokenCallback } from './http.ts';
import { inertResponse } from '../inert-output.ts';
import { withOverflowRetry } from './overflow.ts';
import { withRetry, type RetryOptions } from './retry.ts';
import type { RequestTimeouts } from './timeouts.ts';

/** The settings every remote summarizer takes besides its server, model and key. */
export interface RemoteSummarizerConfig extends RequestTimeouts {
  /** The system message of every request: prompts/summarizer-system.md (the page reads it with the bundle, the command line from disk). */
  systemPrompt: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** The origin the API key was entered for (a remembered key): a request to another origin is refused. Default: not checked (a key given with its base URL, as on the command line). */
  keyOrigin?: string;
  /** Streaming text for a live view, with tokens per second. */
  onToken?: TokenCallback;
  /** Retry tuning (max 3 retries, 500 ms base backoff, 60 s retry-after cap by default). */
  retry?: Omit<RetryOptions, 'signal' | 'label'>;
  /** Clock for tokens per second (ms). Default performance.now. */
  now?: () => number;
}

/** The meter of one attempt's streamed text, reporting to the config's `onToken`. */
export function attemptMeter(request: SummaryRequest, attempt: number, config: RemoteSummarizerConfig): StreamMeter {
  return new StreamMeter(request.taskId, attempt, config.onToken, config.now ?? (() => performance.now()));
}

/** The summarizer of `provider` that runs `once` per attempt, with retries and the overflow fallback. */
export function remoteSummarizer(
  provider: ProviderRef,
  config: RemoteSummarizerConfig & { model: string },
  once: (request: SummaryRequest, attempt: number) => Promise<SummaryResponse>,
): Summarizer {
  return {
    id: provider.id,
    label: `${provider.label} · ${config.model}`,
    summarize: (request) => withOverflowRetry(
      (req) => withRetry((attempt) => once(req, attempt), { ...config.retry, signal: req.signal, label: provider.label }),
      request,
    ).then(inertResponse),
  };
}
