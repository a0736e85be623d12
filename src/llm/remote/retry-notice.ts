/**
 * The line that says what a request is waiting for before a retry: which request, why (the HTTP
 * status, and the server's own retry-after when it gave one), how long, and which attempt comes
 * next. The command line prints it to stderr; nothing in it can carry a key (labels and numbers only).
 */
import { RateLimitError, type ProviderError } from './errors.ts';
import { DEFAULT_MAX_RETRIES } from './retry.ts';

/** What `withRetry` reports before each wait. */
export interface RetryWait {
  /** The attempt about to be made after the wait (1 = first retry). */
  attempt: number;
  delayMs: number;
  error: ProviderError;
  /** True when the wait is for the network to come back (the page or machine is offline). */
  waitingForNetwork?: boolean;
}

/** The wait as the page counts it down: why, until when (epoch ms, from `now`), which retry. */
export function waitOf(wait: RetryWait, now: number): { reason: 'rate-limit' | 'busy' | 'network'; until: number; attempt: number } {
  return { reason: wait.waitingForNetwork ? 'network' : wait.error.status === 429 ? 'rate-limit' : 'busy', until: now + wait.delayMs, attempt: wait.attempt };
}

/** "Waiting 20 s (retry-after) before attempt 2 of 4 of request 3 (a reply) to Local · qwen3:8b: rate limited (HTTP 429)." */
export function retryNotice(wait: RetryWait, request: string, maxRetries: number = DEFAULT_MAX_RETRIES): string {
  const { error } = wait;
  const reason = error instanceof RateLimitError ? `rate limited (HTTP 429)` : `${error.name}${error.status !== undefined ? ` (HTTP ${error.status})` : error.code ? ` (${error.code})` : ''}`;
  if (wait.waitingForNetwork) return `Offline: waiting for the network before attempt ${wait.attempt + 1} of ${request} to ${error.providerLabel} · ${error.model} (${reason}); it is sent again once the network is back.`;
  const source = error.retryAfterMs !== undefined && error.retryAfterMs === wait.delayMs ? 'as the server asked' : 'backoff';
  return `Waiting ${waitText(wait.delayMs)} (${source}) before attempt ${wait.attempt + 1} of ${maxRetries + 1} of ${request} to ${error.providerLabel} · ${error.model}: ${reason}.`;
}

function waitText(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
}
