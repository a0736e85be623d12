/**
 * The ways a remote summary request fails, one named class each, with messages a user can act on.
 * No message, field or cause ever holds the API key: server text is redacted before it is quoted.
 *
 * CORS: a browser reports a CORS refusal exactly like a network failure (a bare `TypeError:
 * Failed to fetch`, no status, no headers readable by script), so there is no separate CorsError:
 * NetworkError names both causes.
 */
import { SummarizerError, SummaryTimeoutError } from '../../core/compaction/summarizer.ts';
import { CancelledError } from '../../core/cancel.ts';

/** Who answered, as the messages name it. Holds no key. */
export interface ProviderRef {
  /** Summarizer id ('openai', 'anthropic', 'openrouter', ...). */
  id: string;
  /** Human name ("OpenAI", "Ollama", ...). */
  label: string;
  model: string;
  /** Base URL without query or credentials. */
  baseUrl: string;
}

interface ProviderErrorInit {
  status?: number;
  /** The provider's own error code or type (`context_length_exceeded`, `overloaded_error`, ...). */
  code?: string;
  retryable?: boolean;
  /** How long the server asked us to wait before retrying (ms). */
  retryAfterMs?: number;
  /** The server's own words, already redacted. */
  detail?: string;
}

/** Any failure of a remote provider; `retryable` says whether withRetry may try again. */
export class ProviderError extends SummarizerError {
  override name = 'ProviderError';
  readonly provider: string;
  /** The provider's human name, as messages use it. */
  readonly providerLabel: string;
  readonly model: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The server's own words (redacted), '' when it gave none. */
  readonly detail: string;
  /** Requests made before this error was final (withRetry sets it). */
  attempts = 1;

  constructor(provider: ProviderRef, message: string, init: ProviderErrorInit = {}) {
    super(message);
    this.provider = provider.id;
    this.providerLabel = provider.label;
    this.model = provider.model;
    this.status = init.status;
    this.code = init.code;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail ?? '';
  }
}

/** 401/403: the key is wrong, missing, or may not use this model. */
export class AuthError extends ProviderError {
  override name = 'AuthError';
  constructor(provider: ProviderRef, status: number, detail: string, code?: string) {
    super(provider, `${provider.label} refused the request (HTTP ${status}): wrong or missing key${status === 403 ? ', or the key may not use this model' : ''}. Check the API key in the summarizer settings.${said(detail)}`, { status, detail, ...(code ? { code } : {}) });
  }
}

/** 429: too many requests or tokens per minute. */
export class RateLimitError extends ProviderError {
  override name = 'RateLimitError';
  constructor(provider: ProviderRef, detail: string, init: { retryAfterMs?: number; code?: string; tooLongMs?: number } = {}) {
    const wait = init.retryAfterMs !== undefined ? ` It asks to wait ${seconds(init.retryAfterMs)}.` : '';
    const advice = init.tooLongMs !== undefined
      ? ` That is longer than the ${seconds(init.tooLongMs)} Foldlab waits on its own: try again later, or pick a model with a higher limit.`
      : ' Wait a minute and try again, or pick a model with a higher limit.';
    super(provider, `${provider.label} is rate limiting requests (HTTP 429).${wait}${advice}${said(detail)}`, {
      status: 429, detail, retryable: init.tooLongMs === undefined, ...(init.code ? { code: init.code } : {}),
      ...(init.retryAfterMs !== undefined ? { retryAfterMs: init.retryAfterMs } : {}),
    });
  }
}

/** 5xx / 529 / an `overloaded_error` event: the provider is busy or broken right now. */
export class OverloadedError extends ProviderError {
  override name = 'OverloadedError';
  constructor(provider: ProviderRef, status: number, detail: string, init: { code?: string; retryAfterMs?: number } = {}) {
    super(provider, `${provider.label} is overloaded or failing (HTTP ${status}): try again in a minute, or pick another model.${said(detail)}`, { status, detail, retryable: true, ...init });
  }
}

/** 404 / `model_not_found`: the model name or the base URL is wrong. */
export class ModelNotFoundError extends ProviderError {
  override name = 'ModelNotFoundError';
  constructor(provider: ProviderRef, status: number, detail: string, code?: string) {
    const aboutModel = /model/i.test(`${detail} ${code ?? ''}`);
    const hint = aboutModel
      ? `Check the model name ("${provider.model}") and that this key may use it.`
      : `Check the model name ("${provider.model}") and the base URL (${provider.baseUrl}): OpenAI-compatible servers usually end in /v1.`;
    super(provider, `${provider.label} does not know the model "${provider.model}" or the endpoint (HTTP ${status}). ${hint}${said(detail)}`, { status, detail, ...(code ? { code } : {}) });
  }
}

/** The prompt is larger than the model's context window. */
export class ContextOverflowError extends ProviderError {
  override name = 'ContextOverflowError';
  /** True when this overflow happened on the retry with the oldest half of the transcript dropped. */
  readonly afterTruncation: boolean;
  constructor(provider: ProviderRef, status: number | undefined, detail: string, init: { code?: string; afterTruncation?: boolean } = {}) {
    const tried = init.afterTruncation ? ' even with the oldest half of the transcript dropped' : '';
    super(provider, `The text to summarize does not fit the context window of "${provider.model}" on ${provider.label}${tried}: pick a model with a larger window, or compact a shorter range.${said(detail)}`, {
      detail, ...(status !== undefined ? { status } : {}), ...(init.code ? { code: init.code } : {}),
    });
    this.afterTruncation = init.afterTruncation ?? false;
  }
}

/** Billing, credit, quota or spend limit reached: waiting does not help, so it is never retried. */
export class SpendLimitError extends ProviderError {
  override name = 'SpendLimitError';
  constructor(provider: ProviderRef, status: number, detail: string, code?: string) {
    super(provider, `${provider.label} refused the request because a billing, credit, quota or spend limit was reached (HTTP ${status}${code ? `, ${code}` : ''}). Waiting will not help and Foldlab did not retry: add credit, or raise the spend limit or usage tier in the provider's console, then run it again.${said(detail)}`, { status, detail, ...(code ? { code } : {}) });
  }
}

/** fetch itself failed: no answer at all (server down, wrong URL, offline, or CORS refused). */
export class NetworkError extends ProviderError {
  override name = 'NetworkError';
  /** `code`: the system's reason where the runtime gives one (Node: ECONNREFUSED, ENOTFOUND, ...). */
  constructor(provider: ProviderRef, code?: string) {
    super(provider, `Could not reach ${provider.label} at ${provider.baseUrl}${code ? ` (${code})` : ''}: network down or CORS refused: check the base URL and that the server allows this origin (Ollama: set OLLAMA_ORIGINS; LM Studio: enable CORS).`, code ? { code } : {});
  }
}

/** The browser is offline: the request failed, or a retry was due, while there was no network, and it already waited for the network once. */
export class OfflineError extends ProviderError {
  override name = 'OfflineError';
  constructor(provider: ProviderRef, attempts: number) {
    super(provider, `You are offline: ${provider.label} cannot be reached, so Foldlab stopped after ${attempts} attempt${attempts === 1 ? '' : 's'} (a request waits for the network and is sent again once). Importing, counting and compacting with the offline summarizer keep working; run this again once you are back online.`);
    this.attempts = attempts;
  }
}

/**
 * A remembered key is bound to the origin of the endpoint it was entered for: a request taking it
 * anywhere else (a base URL changed since, by hand or by a restored backup) is refused before it is
 * sent. Never retried.
 */
export class KeyOriginError extends ProviderError {
  override name = 'KeyOriginError';
  readonly keyOrigin: string;
  readonly requestOrigin: string;
  constructor(provider: ProviderRef, keyOrigin: string, requestOrigin: string) {
    super(provider, `The API key for ${provider.label} was saved for ${keyOrigin}, but this request goes to ${requestOrigin}, so it was not sent. If you trust ${requestOrigin}, enter the key again for it in Settings > Models.`);
    this.keyOrigin = keyOrigin;
    this.requestOrigin = requestOrigin;
  }
}

/** The stream broke off, ended without its final event, or sent something unreadable. */
export class StreamError extends ProviderError {
  override name = 'StreamError';
  constructor(provider: ProviderRef, why: string, receivedChars: number) {
    super(provider, `The reply from ${provider.label} broke off (${why}) after ${receivedChars} characters of summary; nothing was used. Try again.`);
  }
}

/** The model answered with an empty summary (often: every token went to reasoning, or max tokens is too low). */
export class EmptyReplyError extends ProviderError {
  override name = 'EmptyReplyError';
  constructor(provider: ProviderRef, finishReason: string | undefined) {
    super(provider, `"${provider.model}" on ${provider.label} returned no summary text${finishReason ? ` (stop reason: ${finishReason})` : ''}: raise max tokens or pick another model.`);
  }
}

/** Any other refusal (400, 408, 409, 422, ...): the server's words, quoted. */
export class ProviderHttpError extends ProviderError {
  override name = 'ProviderHttpError';
  constructor(provider: ProviderRef, status: number, detail: string, init: { code?: string; retryable?: boolean; retryAfterMs?: number } = {}) {
    super(provider, `${provider.label} rejected the request (HTTP ${status}).${said(detail) || ' Check the model and settings.'}`, { status, detail, ...init });
  }
}

/** The summary ran past its time limit (the orchestrator's 120 s, or any timeout signal). */
export class ProviderTimeoutError extends SummaryTimeoutError {
  override name = 'ProviderTimeoutError';
  constructor(timeoutMs: number, label: string) {
    super(timeoutMs);
    this.message = `Total timeout: ${label} did not finish the summary ${timeoutMs > 0 ? `within ${seconds(timeoutMs)}` : 'in time'}: the model may be slow or overloaded; try a smaller or faster model, or a shorter range.`;
  }
}

/** No response headers arrived within the connect timeout: the server is down, unreachable or stuck before answering. */
export class ConnectTimeoutError extends ProviderTimeoutError {
  override name = 'ConnectTimeoutError';
  constructor(timeoutMs: number, label: string) {
    super(timeoutMs, label);
    this.message = `Connect timeout: ${label} sent no response within ${seconds(timeoutMs)} of the request: check that the server is running and reachable, or allow it longer.`;
  }
}

/** The stream started, then nothing arrived for the idle timeout: the server stalled mid-reply. */
export class IdleTimeoutError extends ProviderTimeoutError {
  override name = 'IdleTimeoutError';
  constructor(timeoutMs: number, label: string, readonly bytesReceived: number) {
    super(timeoutMs, label);
    this.message = `Idle timeout: ${label} sent nothing for ${seconds(timeoutMs)} after ${bytesReceived.toLocaleString('en-US')} bytes of its reply: the server stalled; try again, or allow it longer (--idle-timeout in the command line).`;
  }
}

/** A live session's reply (all its attempts) did not finish within the reply timeout; the session keeps everything before it. */
export class ReplyTimeoutError extends ProviderTimeoutError {
  override name = 'ReplyTimeoutError';
  constructor(timeoutMs: number, label: string) {
    super(timeoutMs, label);
    this.message = `Reply timeout: ${label} did not finish its reply within ${seconds(timeoutMs)} (Settings > Models, "Reply"): the turn was ended and the session keeps everything before this reply; send again, or allow it longer.`;
  }
}

/** The user cancelled while the request ran: nothing was changed. */
export function providerCancelled(label: string): CancelledError {
  return new CancelledError(`Summary request to ${label} cancelled: nothing was changed.`);
}

/** The error to throw once `signal` has aborted: a timeout when its reason is one, else a cancel. */
export function abortError(signal: AbortSignal, label: string): ProviderTimeoutError | CancelledError {
  const reason: unknown = signal.reason;
  if (reason instanceof ProviderTimeoutError || reason instanceof CancelledError) return reason;
  if (reason instanceof SummaryTimeoutError) return new ProviderTimeoutError(reason.timeoutMs, label);
  if (reason instanceof Error && reason.name === 'TimeoutError') return new ProviderTimeoutError(0, label);
  return providerCancelled(label);
}

// Wordings of "the prompt does not fit" across providers: OpenAI, Anthropic, OpenRouter, vLLM,
// llama.cpp, LM Studio, Groq/Cerebras, Mistral, Gemini, xAI, Bedrock, GitHub Copilot, MiniMax, Kimi,
// z.ai, and WebLLM in the tab.
const OVERFLOW_CODES = /^(context_length_exceeded|exceed_context_size_error|string_above_max_length|request_too_large)$/i;
const OVERFLOW_TEXT = [
  /prompt is too long|input is too long|prompt too long/i,
  /maximum (context length|prompt length) is \d+/i,
  /context length of only \d+ tokens|context the overflows/i,
  /exceeds? the (context window|available context size|maximum context)/i,
  /prompt tokens exceed context window size/i,
  /reduce the length of the messages/i,
  /too large for model with \d+ maximum context length/i,
  /input token count.{0,40}exceeds the maximum/i,
  /context[_ ]length[_ ]exceeded|context window (is )?exceeded/i,
  // From pi-mono's list (packages/ai/src/utils/overflow.ts): Copilot, LM Studio, MiniMax, Kimi, z.ai, generic.
  /prompt token count of \d+ exceeds the limit/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /model_context_window_exceeded/i,
  /too many tokens|token limit exceeded/i,
];
// Throttling talks about tokens too ("tokens per minute", "reduce the prompt length ... or try again
// later"): such a reply is a rate limit, never an overflow, whatever its status.
const THROTTLE_TEXT = /rate[ _-]?limit|per min(ute)?\b|\b[TR]PM\b|tokens per (second|day|hour)|too many requests|throttl|quota/i;

/** True when a reply (HTTP status, or undefined for an in-tab engine, and its body or message) says the prompt did not fit. */
export function isContextOverflow(status: number | undefined, body: string): boolean {
  if (status === 429) return false;
  const { message, code, type } = parseErrorBody(body);
  if ((code && OVERFLOW_CODES.test(code)) || (type && OVERFLOW_CODES.test(type))) return true;
  const text = message || body;
  if (THROTTLE_TEXT.test(text) || THROTTLE_TEXT.test(code ?? '')) return false;
  if (status === 413) return true;
  return OVERFLOW_TEXT.some((pattern) => pattern.test(text));
}

/** The message, code and type of an error body in the OpenAI, Anthropic, Ollama, vLLM or llama.cpp shape; plain text as message. */
export function parseErrorBody(body: string): { message: string; code?: string; type?: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { message: body.trim() };
  }
  if (!isRecord(json)) return { message: body.trim() };
  const inner = json.error;
  const source = isRecord(inner) ? inner : json;
  const message = typeof inner === 'string' ? inner : typeof source.message === 'string' ? source.message : '';
  // Anthropic puts the precise cause under `details.error_code` (`enforced_spend_limit_reached` on a 429).
  const details = isRecord(source.details) ? source.details : undefined;
  const code = typeof source.code === 'string' ? source.code : typeof details?.error_code === 'string' ? details.error_code : undefined;
  const type = typeof source.type === 'string' && source.type !== 'error' ? source.type : undefined;
  return { message: message.trim(), ...(code ? { code } : {}), ...(type ? { type } : {}) };
}

/** `text` with every occurrence of `secret`, and anything shaped like a key, replaced. */
export function redact(text: string, secret?: string): string {
  let out = text;
  if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out
    .replace(/\b(sk|rk|pk)-[A-Za-z0-9_*-]{6,}/g, '[redacted]')
    .replace(/(Bearer\s+)[^\s"']+/gi, '$1[redacted]')
    .replace(/([?&](key|api[_-]?key|token)=)[^&\s"']+/gi, '$1[redacted]');
}

/** A URL as messages may show it: no credentials, query or fragment. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return redact(url.split(/[?#]/)[0] ?? '');
  }
}

function said(detail: string): string {
  const text = detail.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return ` Server said: "${text.length > 300 ? `${text.slice(0, 299)}…` : text}"`;
}

function seconds(ms: number): string {
  return ms > 600_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 100) / 10} s`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
