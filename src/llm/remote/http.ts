/**
 * The HTTP side shared by the remote providers: POST a JSON body, turn a refusal into the right
 * named error (with the server's retry hint), and read a server-sent event stream with
 * eventsource-parser, mapping a broken connection to StreamError and an abort to timeout/cancel.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  AuthError, ContextOverflowError, KeyOriginError, ModelNotFoundError, NetworkError, OfflineError, OverloadedError, ProviderHttpError,
  ProviderTimeoutError, RateLimitError, SpendLimitError, StreamError, abortError, isContextOverflow, parseErrorBody, redact,
  type ProviderError, type ProviderRef,
} from './errors.ts';
import { isOffline } from './network.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, requestController, withIdleTimeout, type RequestTimeouts } from './timeouts.ts';

/** Characters of an error body read before giving up on the rest (a proxy may send a whole HTML page). */
export const MAX_ERROR_BODY_CHARS = 65_536;
/** Characters one SSE event may buffer before the stream is called broken. */
export const MAX_EVENT_CHARS = 8_000_000;

/** A request to a provider; `secret` is only used to scrub messages. */
export interface PostArgs extends RequestTimeouts {
  provider: ProviderRef;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  fetch: typeof fetch;
  secret?: string;
  /** The origin the key in `headers` was entered for: a request to any other origin is refused unsent. */
  keyOrigin?: string;
}

/** `post` with a provider config's fetch (default: the global one) and its key as the secret to scrub. */
export function postWith(config: RequestTimeouts & { fetch?: typeof fetch; apiKey?: string; keyOrigin?: string }, args: Omit<PostArgs, 'fetch' | 'secret' | 'keyOrigin' | keyof RequestTimeouts>): Promise<Response> {
  const timeouts: RequestTimeouts = {
    ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
    ...(config.idleTimeoutMs !== undefined ? { idleTimeoutMs: config.idleTimeoutMs } : {}),
  };
  return post({ ...args, ...timeouts, fetch: config.fetch ?? globalThis.fetch, ...(config.apiKey ? { secret: config.apiKey } : {}), ...(config.apiKey && config.keyOrigin !== undefined ? { keyOrigin: config.keyOrigin } : {}) });
}

/** The origin of a URL ('' when it is not one), compared with the origin a key was saved for. */
export function originOf(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return '';
  }
}

/**
 * POSTs the body; resolves with a 2xx response, rejects with a named error for anything else.
 * No headers within the connect timeout fails with ConnectTimeoutError; a body (stream or not)
 * silent for the idle timeout fails its read with IdleTimeoutError.
 */
export async function post(args: PostArgs): Promise<Response> {
  if (args.signal.aborted) throw abortError(args.signal, args.provider.label);
  if (args.keyOrigin !== undefined && originOf(args.url) !== args.keyOrigin) throw new KeyOriginError(args.provider, args.keyOrigin, originOf(args.url));
  const request = requestController(args.signal, args.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, args.provider.label);
  let response: Response;
  // Called as a plain function: a browser's fetch refuses to run with another object as `this`.
  const send = args.fetch;
  try {
    response = await send(args.url, { method: 'POST', headers: args.headers, body: JSON.stringify(args.body), signal: request.signal });
  } catch (error) {
    request.release();
    // The cause (a TypeError, or the abort reason) is left out on purpose: it may carry the URL.
    const timedOut = request.timedOut();
    if (timedOut) throw timedOut;
    if (args.signal.aborted) throw abortError(args.signal, args.provider.label);
    throw isOffline() ? new OfflineError(args.provider, 1) : new NetworkError(args.provider, systemCode(error));
  }
  request.connected();
  const idleMs = args.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  response = withIdleTimeout(response, idleMs, args.provider.label, (error) => request.abort(error), request.release);
  if (response.ok) return response;
  let body = '';
  try {
    body = await readLimited(response, MAX_ERROR_BODY_CHARS);
  } catch {
    if (args.signal.aborted) throw abortError(args.signal, args.provider.label);
  }
  throw errorFromResponse(args.provider, response.status, body, response.headers, args.secret);
}

/** The system error code under a failed fetch (Node's `cause.code`: ECONNREFUSED, ENOTFOUND, ...); nothing else of it. */
function systemCode(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' && /^E[A-Z_]{2,30}$/.test(code) ? code : undefined;
}

/** Rethrows a connect or idle timeout met while reading a body, so it is not reported as a broken stream. */
export function rethrowTimeout(error: unknown): void {
  if (error instanceof ProviderTimeoutError) throw error;
}

/** The named error for an HTTP refusal (also used for error events inside a stream, with the status they stand for). */
export function errorFromResponse(provider: ProviderRef, status: number, body: string, headers?: Headers, secret?: string): ProviderError {
  const parsed = parseErrorBody(body);
  const detail = redact(parsed.message || (body.trimStart().startsWith('<') ? '' : body), secret);
  const rawCode = parsed.code ?? parsed.type;
  const code = rawCode === undefined ? undefined : redact(rawCode, secret);
  const codeInit = code ? { code } : {};
  const retryAfterMs = headers ? parseRetryAfter(headers) : undefined;
  const retryInit = retryAfterMs !== undefined ? { retryAfterMs } : {};
  let error: ProviderError;
  if (isContextOverflow(status, body)) error = new ContextOverflowError(provider, status, detail, codeInit);
  else if (isSpendLimit(status, parsed)) error = new SpendLimitError(provider, status, detail, code);
  else if (status === 401 || status === 403) error = new AuthError(provider, status, detail, code);
  else if (status === 404 || code === 'model_not_found' || code === 'not_found_error') error = new ModelNotFoundError(provider, status, detail, code);
  else if (status === 429) error = new RateLimitError(provider, detail, { ...retryInit, ...codeInit });
  else if (status >= 500) error = new OverloadedError(provider, status, detail, { ...codeInit, ...retryInit });
  else error = new ProviderHttpError(provider, status, detail, { ...codeInit, ...retryInit, retryable: status === 408 || status === 409 });
  // Both OpenAI and Anthropic send x-should-retry: honour a "no".
  if (headers?.get('x-should-retry') === 'false') error.retryable = false;
  return error;
}

// Anthropic error types inside a stream, by the HTTP status they stand for.
const ANTHROPIC_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400, authentication_error: 401, billing_error: 402, permission_error: 403,
  not_found_error: 404, request_too_large: 413, rate_limit_error: 429, api_error: 500,
  timeout_error: 504, overloaded_error: 529,
};

/** The HTTP status an error object met inside a 200 stream stands for. */
export function statusOfStreamError(payload: unknown): number {
  const error = typeof payload === 'object' && payload !== null ? (payload as { error?: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null) {
    const { code, type, status } = error as { code?: unknown; type?: unknown; status?: unknown };
    for (const value of [status, code]) {
      if (typeof value === 'number' && value >= 400 && value < 600) return value;
      if (typeof value === 'string' && /^[45]\d\d$/.test(value)) return Number(value);
    }
    if (typeof type === 'string' && ANTHROPIC_ERROR_STATUS[type] !== undefined) return ANTHROPIC_ERROR_STATUS[type];
  }
  return isContextOverflow(undefined, JSON.stringify(payload)) ? 400 : 500;
}

const SPEND_TEXT = /credit balance|insufficient (credits|funds|balance|quota)|exceeded your current quota|(spend|spending|usage) limits?\b|billing/i;
// On a 429 only wordings that cannot be a per-minute throttle count: OpenAI's rate-limit message
// itself mentions billing ("increase your rate limit by adding a payment method ... /billing").
const SPEND_TEXT_429 = /credit balance|insufficient (credits|funds|balance|quota)|exceeded your current quota|reached your (specified )?(workspace )?(api )?usage limits?|monthly (api )?usage threshold|spend(ing)? limit/i;
/** Provider codes for an exhausted quota, credit or spend cap (OpenAI, Anthropic `details.error_code`, OpenRouter, Azure). */
const SPEND_CODES = new Set(['insufficient_quota', 'enforced_spend_limit_reached', 'billing_hard_limit_reached', 'billing_not_active', 'billing_error', 'quota_exceeded', 'insufficient_credits', 'credit_limit_exceeded']);

/** True when the refusal is about money or quota, not speed: such a refusal is never retried. */
export function isSpendLimit(status: number, parsed: { message: string; code?: string; type?: string }): boolean {
  if (status === 402) return true;
  if ((parsed.code && SPEND_CODES.has(parsed.code)) || (parsed.type && SPEND_CODES.has(parsed.type))) return true;
  if (status === 429) return SPEND_TEXT_429.test(parsed.message);
  return status >= 400 && status < 500 && SPEND_TEXT.test(parsed.message);
}

/** The server's wait hint in ms: `retry-after-ms`, then `retry-after` as seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const secondsValue = Number(value);
  if (Number.isFinite(secondsValue)) return Math.max(0, secondsValue * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Reads at most `max` characters of a body, then stops. */
export async function readLimited(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < max) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, max);
}

/**
 * The events of an SSE response, in order. A connection that breaks, a parse failure or an abort
 * ends the iteration with StreamError / timeout / cancel; a clean end simply returns (the caller
 * decides whether its final event came). `received()` says how much text was kept, for messages.
 */
export async function* sseEvents(response: Response, provider: ProviderRef, signal: AbortSignal, received: () => number): AsyncGenerator<EventSourceMessage> {
  if (!response.body) throw new StreamError(provider, 'the response had no body', 0);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const queue: EventSourceMessage[] = [];
  let parseFailure: string | undefined;
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') parseFailure = 'an event too large to read';
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  // Some fetch implementations do not end a pending read on abort: cancel the reader ourselves.
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        rethrowTimeout(error);
        if (signal.aborted) throw abortError(signal, provider.label);
        throw new StreamError(provider, 'the connection was cut mid-stream', received());
      }
      if (signal.aborted) throw abortError(signal, provider.label);
      if (chunk.done) {
        finished = true;
        parser.feed(decoder.decode());
        parser.reset({ consume: true });
      } else {
        parser.feed(decoder.decode(chunk.value, { stream: true }));
      }
      if (parseFailure) throw new StreamError(provider, parseFailure, received());
      while (queue.length > 0) yield queue.shift()!;
      if (finished) return;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!finished) void reader.cancel().catch(() => undefined);
  }
}

/** Output tokens to ask for: the task's number, capped by the configured one; undefined when neither is set. */
export function outputCap(taskMax: number | undefined, configMax: number | undefined): number | undefined {
  if (taskMax === undefined) return configMax;
  return configMax === undefined ? taskMax : Math.min(taskMax, configMax);
}

/** JSON of one event's data, or StreamError when it is not JSON. */
export function parseEventData(event: EventSourceMessage, provider: ProviderRef, received: number): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    throw new StreamError(provider, `an unreadable event: ${JSON.stringify(redact(event.data.slice(0, 60)))}`, received);
  }
}

/** How a streaming summary is going, for a live view. */
export interface StreamProgress {
  taskId: string;
  /** 0 for the first request, 1.. for retries (the text starts over on each). */
  attempt: number;
  /** All text received so far in this attempt. */
  text: string;
  /** Tokens so far: the provider's count once it reports one, else the number of text deltas. */
  tokens: number;
  /** Since the first token arrived (ms). */
  elapsedMs: number;
  /** tokens / elapsed seconds; 0 until two tokens have arrived. */
  tokensPerSecond: number;
  /** True on the last call, after the final event. */
  done: boolean;
}

/** Called with each new piece of text (and once more with '' and done: true at the end). */
export type TokenCallback = (delta: string, progress: StreamProgress) => void;

/** Accumulates streamed text and reports it with a tokens-per-second rate. */
export class StreamMeter {
  text = '';
  private deltas = 0;
  private firstAt: number | undefined;

  constructor(
    private readonly taskId: string,
    private readonly attempt: number,
    private readonly onToken: TokenCallback | undefined,
    private readonly now: () => number,
  ) {}

  add(delta: string): void {
    if (!delta) return;
    this.text += delta;
    this.deltas++;
    this.firstAt ??= this.now();
    this.onToken?.(delta, this.progress(undefined, false));
  }

  finish(outputTokens: number | undefined): void {
    this.onToken?.('', this.progress(outputTokens, true));
  }

  private progress(outputTokens: number | undefined, done: boolean): StreamProgress {
    const elapsedMs = this.firstAt === undefined ? 0 : Math.max(0, this.now() - this.firstAt);
    const tokens = outputTokens ?? this.deltas;
    return { taskId: this.taskId, attempt: this.attempt, text: this.text, tokens, elapsedMs, tokensPerSecond: elapsedMs > 0 && tokens > 1 ? tokens / (elapsedMs / 1000) : 0, done };
  }
}
