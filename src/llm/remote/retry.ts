/**
 * Retries a provider call the way the official SDKs do: rate limits wait for the server's
 * retry-after (up to a cap), transient failures (408, 409, 5xx, 529) back off exponentially with
 * jitter, and nothing else is retried. A request that fails while the browser is offline (or
 * whose wait goes offline) waits for the network instead, then is sent again, once per call; an
 * abort ends any wait at once.
 */
import { NetworkError, OfflineError, ProviderError, RateLimitError, abortError, type ProviderRef } from './errors.ts';
import { isOffline, onOffline, waitForOnline } from './network.ts';

/** Retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 3;
/** First backoff delay (ms); doubles each retry. */
export const DEFAULT_BASE_DELAY_MS = 500;
/** Longest backoff delay (ms). */
export const DEFAULT_MAX_DELAY_MS = 8_000;
/** Longest server-requested wait honoured (ms); a longer retry-after fails at once with RateLimitError. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export interface RetryOptions {
  /** Aborts the call and any wait between attempts. */
  signal?: AbortSignal;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry. Default 500. */
  baseDelayMs?: number;
  /** Cap on one backoff delay in ms. Default 8,000. */
  maxDelayMs?: number;
  /** Longest retry-after honoured, in ms; beyond it the rate limit is reported instead. Default 60,000. */
  maxRetryAfterMs?: number;
  /** Waits `ms` (injectable for tests). Default: a timer that the signal cancels. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1). Default Math.random. */
  random?: () => number;
  /** Called before each wait, e.g. to tell the user "retrying in 2 s"; `waitingForNetwork` when the wait is for the browser to be online again. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError; waitingForNetwork?: boolean }) => void;
  /** A request failing while offline waits for the network, then is sent again once (per call). Default true. */
  waitForNetwork?: boolean;
  /**
   * Retry a request that could not be sent at all (NetworkError: connection refused, name not
   * found) with backoff, up to maxRetries. The command line does; the page does not, as there such
   * a failure is usually a CORS refusal or a wrong URL. Default false.
   */
  retryNetworkErrors?: boolean;
  /** Names the provider in timeout/cancel errors. Default "The provider". */
  label?: string;
}

/** Runs `fn` (given the attempt number, 0 first) until it succeeds, fails for good, or the signal aborts. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const label = options.label ?? 'The provider';
  const { signal } = options;
  let networkWaits = 0;
  /** Offline: wait for the network once per call, then send again; a second time, stop. */
  const waitForNetwork = async (error: ProviderError, attempts: number) => {
    if (options.waitForNetwork === false || networkWaits >= 1) throw offline(error, attempts);
    networkWaits++;
    options.onRetry?.({ attempt: attempts, delayMs: 0, error, waitingForNetwork: true });
    await waitForOnline(signal).catch(() => {
      throw abortError(signal!, label);
    });
  };
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortError(signal, label);
    try {
      return await fn(attempt);
    } catch (error) {
      if (signal?.aborted) throw abortError(signal, label);
      if (!(error instanceof ProviderError)) throw error;
      error.attempts = attempt + 1;
      if (error instanceof OfflineError || ((error.retryable || error instanceof NetworkError) && isOffline())) {
        await waitForNetwork(error, attempt + 1);
        continue;
      }
      const retryable = error.retryable || (options.retryNetworkErrors === true && error instanceof NetworkError);
      if (!retryable) throw error;
      if (attempt >= maxRetries) {
        error.message += ` Gave up after ${attempt + 1} attempts.`;
        throw error;
      }
      let delayMs: number;
      if (error.retryAfterMs !== undefined && error.retryAfterMs <= maxRetryAfterMs) {
        delayMs = error.retryAfterMs;
      } else if (error.retryAfterMs !== undefined && error instanceof RateLimitError) {
        const tooLong = rateLimitTooLong(error, maxRetryAfterMs);
        tooLong.attempts = attempt + 1;
        throw tooLong;
      } else {
        delayMs = backoffDelay(attempt, options);
      }
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      const wait = await offlineAware(abortableSleep(delayMs, options.sleep ?? defaultSleep, signal, label));
      if (wait === 'offline') await waitForNetwork(error, attempt + 1);
    }
  }
}

/** The delay before retry `attempt + 1`: base * 2^attempt, capped, minus up to 25 % jitter. */
export function backoffDelay(attempt: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'> = {}): number {
  const base = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const max = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const jitter = 1 - 0.25 * (options.random ?? Math.random)();
  return Math.round(Math.min(base * 2 ** attempt, max) * jitter);
}

function refOf(error: ProviderError): ProviderRef {
  return { id: error.provider, label: error.providerLabel, model: error.model, baseUrl: '' };
}

function offline(error: ProviderError, attempts: number): OfflineError {
  const final = new OfflineError(refOf(error), attempts);
  final.attempts = attempts;
  return final;
}

/** The wait before a retry; 'offline' when the browser went offline meanwhile (the wait is cut short). */
async function offlineAware(wait: Promise<void>): Promise<'waited' | 'offline'> {
  let unsubscribe: () => void = () => undefined;
  const wentOffline = new Promise<'offline'>((resolve) => {
    unsubscribe = onOffline(() => resolve('offline'));
  });
  try {
    return await Promise.race([wait.then(() => 'waited' as const), wentOffline]);
  } finally {
    unsubscribe();
  }
}

function rateLimitTooLong(error: RateLimitError, capMs: number): RateLimitError {
  return new RateLimitError(refOf(error), error.detail, { retryAfterMs: error.retryAfterMs!, tooLongMs: capMs, ...(error.code ? { code: error.code } : {}) });
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Waits, but rejects as soon as the signal aborts, even if an injected sleep ignores it. */
async function abortableSleep(ms: number, sleep: NonNullable<RetryOptions['sleep']>, signal: AbortSignal | undefined, label: string): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) throw abortError(signal, label);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal, label));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw abortError(signal, label);
}
