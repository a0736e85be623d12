/**
 * What the live agent's remote models share: their configuration, one request run with the
 * summarizers' retries (only before anything has streamed, so a retry never repeats text the user
 * already saw), and the mapping of provider failures to the agent's errors: an overflow becomes
 * the agent's ContextOverflowError (the loop compacts and retries), an abort CancelledError,
 * anything else stays the named provider error, worded for a reply instead of a summary.
 */
import { ContextOverflowError, modelStopped, type ModelDelta } from '../../core/agent/types.ts';
import { ContextOverflowError as ProviderOverflowError, ProviderError, ReplyTimeoutError, redact, type ProviderRef } from '../remote/errors.ts';
import { randomNonce } from '../fence.ts';
import { withRetry, type RetryOptions } from '../remote/retry.ts';
import { DEFAULT_REPLY_TIMEOUT_MS, type RequestTimeouts } from '../remote/timeouts.ts';
import { CancelledError } from '../../core/cancel.ts';

/** How an agent model reaches its server. */
export interface AgentModelConfig extends RequestTimeouts {
  /** Server root: `https://api.openai.com/v1`, `http://localhost:11434/v1` (OpenAI-compatible), `https://api.anthropic.com` (Anthropic). */
  baseUrl: string;
  model: string;
  /** Sent only when set (local servers need none); never appears in an error or a log. */
  apiKey?: string;
  /** The origin the API key was entered for (a remembered key): a request to another origin is refused. Default: not checked. */
  keyOrigin?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Cap on output tokens per reply; a request asking for fewer gets its own number. Default: the request's, else the server's (Anthropic: 8,192). */
  maxTokens?: number;
  /** Sampling temperature; omitted when unset. */
  temperature?: number;
  /** Name in messages. Default: the preset's label for this base URL, else the API's. */
  label?: string;
  /** Provider id for the record. Default: the preset's id, else 'openai' / 'anthropic'. */
  providerId?: string;
  /** Retry tuning (max 3 retries, 500 ms base backoff, 60 s retry-after cap by default). */
  retry?: Omit<RetryOptions, 'signal' | 'label'>;
}

/**
 * Runs `attempt` with retries; `emit` passes deltas on and marks the attempt as having streamed,
 * after which a failure is final. Every failure comes out as the agent sees it (see file comment).
 * The whole reply, retries and their waits included, ends with ReplyTimeoutError after
 * `config.replyTimeoutMs` (0: no limit); `attempt` gets the signal that timer aborts.
 */
export async function runAgentRequest<T>(
  provider: ProviderRef,
  config: AgentModelConfig,
  signal: AbortSignal,
  onDelta: ((delta: ModelDelta) => void) | undefined,
  attempt: (emit: (delta: ModelDelta) => void, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (signal.aborted) throw modelStopped();
  const limitMs = config.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
  const reply = new AbortController();
  const forward = () => reply.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  const timer = limitMs > 0 ? setTimeout(() => reply.abort(new ReplyTimeoutError(limitMs, provider.label)), limitMs) : undefined;
  try {
    return await withRetry(async () => {
      let streamed = false;
      const emit = (delta: ModelDelta): void => {
        streamed = true;
        if (!reply.signal.aborted) onDelta?.(delta);
      };
      try {
        return await attempt(emit, reply.signal);
      } catch (error) {
        if (streamed && error instanceof ProviderError) error.retryable = false;
        throw error;
      }
    }, { ...config.retry, signal: reply.signal, label: provider.label });
  } catch (error) {
    const timedOut: unknown = reply.signal.reason;
    throw toAgentError(!signal.aborted && timedOut instanceof ReplyTimeoutError ? timedOut : error, provider, signal, config.apiKey);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }
}

/** A provider failure as the agent loop reads it. */
export function toAgentError(error: unknown, provider: ProviderRef, signal: AbortSignal, secret?: string): Error {
  if (signal.aborted) return modelStopped();
  if (error instanceof ContextOverflowError || error instanceof CancelledError) return error;
  if (error instanceof ProviderOverflowError || (error instanceof Error && error.name === 'ContextOverflowError')) {
    const detail = error instanceof ProviderError ? error.detail : '';
    const said = detail ? ` Server said: "${redact(detail, secret).slice(0, 300)}"` : '';
    return new ContextOverflowError(`The prompt does not fit the context window of "${provider.model}" on ${provider.label}.${said}`);
  }
  if (error instanceof Error) {
    // The provider errors are worded for summaries; the agent's request is a reply.
    error.message = redact(error.message
      .replace('Check the API key in the summarizer settings.', 'Check the API key in Settings > Models.')
      .replace(/characters of summary; nothing was used/, 'characters of the reply; nothing of it was kept')
      .replace('returned no summary text', 'returned nothing'), secret);
    return error;
  }
  return new Error(redact(String(error), secret));
}

/** Tool arguments as sent: parsed JSON, `{}` for nothing, the raw text when it is not JSON. */
export function parseToolInput(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** An id for a tool call the server sent without one (some local servers do). */
export function newCallId(): string {
  return `call_${randomNonce(16)}`;
}

/** A finite count, or undefined. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
