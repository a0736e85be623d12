import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, OfflineError, OverloadedError, RateLimitError, SpendLimitError, type ProviderRef } from './errors.ts';
import { post } from './http.ts';
import { isOffline, setPageOnline, waitForOnline } from './network.ts';
import { withRetry } from './retry.ts';

const ref: ProviderRef = { id: 'openai', label: 'OpenAI', model: 'm', baseUrl: 'https://api.openai.com/v1' };

afterEach(() => setPageOnline(true));

describe('offline while a remote summarizer runs', () => {
  it('a wait before a retry that goes offline waits for the network, then sends the request again once', async () => {
    let calls = 0;
    const waits: Array<{ delayMs: number; waitingForNetwork?: boolean }> = [];
    let online!: () => void;
    const backOnline = new Promise<void>((resolve) => (online = resolve));
    const pending = withRetry(() => {
      calls++;
      return calls === 1 ? Promise.reject(new RateLimitError(ref, 'slow down', { retryAfterMs: 30_000 })) : Promise.resolve('summary');
    }, {
      sleep: () => new Promise(() => undefined),
      onRetry: (info) => {
        waits.push({ delayMs: info.delayMs, ...(info.waitingForNetwork ? { waitingForNetwork: true } : {}) });
        if (info.waitingForNetwork) online();
        else setTimeout(() => setPageOnline(false), 5);
      },
    });
    await backOnline;
    // Offline, nothing is sent: the call waits.
    expect(calls).toBe(1);
    expect(isOffline()).toBe(true);
    setPageOnline(true);
    await expect(pending).resolves.toBe('summary');
    expect(calls).toBe(2);
    expect(waits).toEqual([{ delayMs: 30_000 }, { delayMs: 0, waitingForNetwork: true }]);
  });

  it('a request that fails offline waits for the network and is sent once more; failing offline again, it stops with OfflineError', async () => {
    setPageOnline(false);
    let calls = 0;
    const notices: boolean[] = [];
    const pending = withRetry(() => (calls++, Promise.reject(new OfflineError(ref, 1))), { sleep: () => Promise.resolve(), onRetry: (info) => notices.push(info.waitingForNetwork === true) });
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toBe(1);
    // Back online the request goes out again; the browser is offline again when it fails.
    setPageOnline(true);
    setPageOnline(false);
    const error = await pending.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OfflineError);
    expect((error as OfflineError).message).toMatch(/^You are offline: OpenAI cannot be reached, so Foldlab stopped after 2 attempts \(a request waits for the network and is sent again once\)\. .*offline summarizer keep working/);
    expect(calls).toBe(2);
    expect(notices).toEqual([true]);
  });

  it('a retryable failure or a failed send while offline waits too; Cancel ends the wait, and nothing more is sent', async () => {
    setPageOnline(false);
    const controller = new AbortController();
    let calls = 0;
    const pending = withRetry(() => (calls++, Promise.reject(new OverloadedError(ref, 503, ''))), { signal: controller.signal, sleep: () => Promise.resolve(), onRetry: () => controller.abort() });
    await expect(pending).rejects.toMatchObject({ name: 'CancelledError' });
    setPageOnline(true);
    expect(calls).toBe(1);
    setPageOnline(false);
    let sends = 0;
    const resent = withRetry(() => (sends++ === 0 ? Promise.reject(new NetworkError(ref)) : Promise.resolve('ok')), { onRetry: () => setTimeout(() => setPageOnline(true), 1) });
    await expect(resent).resolves.toBe('ok');
    expect(sends).toBe(2);
  });

  it('waitForOnline resolves at once online, on the way back online, and rejects with the reason on abort', async () => {
    await expect(waitForOnline()).resolves.toBeUndefined();
    setPageOnline(false);
    const waiting = waitForOnline();
    setPageOnline(true);
    await expect(waiting).resolves.toBeUndefined();
    setPageOnline(false);
    const controller = new AbortController();
    const cancelled = waitForOnline(controller.signal);
    controller.abort(new Error('Cancelled by the user'));
    await expect(cancelled).rejects.toThrow('Cancelled by the user');
  });

  it('with waitForNetwork off, a failure offline stops at once', async () => {
    setPageOnline(false);
    let calls = 0;
    const error = await withRetry(() => (calls++, Promise.reject(new OverloadedError(ref, 503, ''))), { waitForNetwork: false, sleep: () => Promise.resolve() }).then(() => undefined, (e: unknown) => e);
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
