import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, OfflineError, OverloadedError, RateLimitError, SpendLimitError, type ProviderRef } from './errors.ts';
import { post } from './http.ts';
import { isOffline, setPageOnline } from './network.ts';
import { withRetry } from './retry.ts';

const ref: ProviderRef = { id: 'openai', label: 'OpenAI', model: 'm', baseUrl: 'https://api.openai.com/v1' };

afterEach(() => setPageOnline(true));

describe('offline while a remote summarizer runs', () => {
  it('a wait before a retry ends as soon as the browser goes offline: one attempt, then OfflineError', async () => {
    let calls = 0;
    const waits: number[] = [];
    const pending = withRetry(() => {
      calls++;
      return Promise.reject(new RateLimitError(ref, 'slow down', { retryAfterMs: 30_000 }));
    }, { sleep: (ms) => (waits.push(ms), new Promise(() => undefined)), onRetry: () => setTimeout(() => setPageOnline(false), 5) });
    const error = await pending.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OfflineError);
    expect((error as OfflineError).message).toMatch(/^You are offline: OpenAI cannot be reached, so Foldlab stopped after 1 attempt and will not try again while offline\. .*offline summarizer keep working/);
    expect(calls).toBe(1);
    expect(waits).toEqual([30_000]);
  });

  it('a retryable failure while offline is not retried', async () => {
    setPageOnline(false);
    expect(isOffline()).toBe(true);
    let calls = 0;
    const error = await withRetry(() => (calls++, Promise.reject(new OverloadedError(ref, 503, ''))), { sleep: () => Promise.resolve() }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OfflineError);
    expect(calls).toBe(1);
  });

  it('a final refusal stays what it is, and online the retries go on as before', async () => {
    setPageOnline(false);
    await expect(withRetry(() => Promise.reject(new SpendLimitError(ref, 429, '', 'insufficient_quota')))).rejects.toBeInstanceOf(SpendLimitError);
    setPageOnline(true);
    let calls = 0;
    await expect(withRetry(() => (calls++ < 2 ? Promise.reject(new OverloadedError(ref, 503, '')) : Promise.resolve('ok')), { sleep: () => Promise.resolve() })).resolves.toBe('ok');
    expect(calls).toBe(3);
  });

  it('a request that cannot be sent says "offline" rather than "network down or CORS" when the browser is offline', async () => {
    const failing = (() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    const args = { provider: ref, url: 'https://api.openai.com/v1/chat/completions', headers: {}, body: {}, signal: new AbortController().signal, fetch: failing };
    await expect(post(args)).rejects.toBeInstanceOf(NetworkError);
    await expect(post(args)).rejects.not.toBeInstanceOf(OfflineError);
    setPageOnline(false);
    await expect(post(args)).rejects.toBeInstanceOf(OfflineError);
  });
});
