import { describe, expect, it } from 'vitest';
import { SummaryTimeoutError } from '../../core/compaction/summarizer.ts';
import {
  AuthError, ModelNotFoundError, OverloadedError, ProviderHttpError, ProviderTimeoutError,
  RateLimitError, SpendLimitError, type ProviderError, type ProviderRef,
} from './errors.ts';
import { backoffDelay, withRetry } from './retry.ts';
import { CancelledError } from '../../core/cancel.ts';

const ref: ProviderRef = { id: 'openai', label: 'OpenAI', model: 'm', baseUrl: 'https://api.openai.com/v1' };

/** A call that fails with `errors` in turn, then answers 'ok'; records attempts. */
function flaky(errors: ProviderError[]) {
  const attempts: number[] = [];
  const fn = (attempt: number) => {
    attempts.push(attempt);
    const error = errors[attempt];
    return error ? Promise.reject(error) : Promise.resolve('ok');
  };
  return { fn, attempts };
}

function recorder() {
  const delays: number[] = [];
  return { delays, sleep: (ms: number) => (delays.push(ms), Promise.resolve()) };
}

describe('withRetry', () => {
  it('backs off exponentially with deterministic jitter on 408, 409, 5xx and 529', async () => {
    const { fn, attempts } = flaky([
      new ProviderHttpError(ref, 408, '', { retryable: true }),
      new ProviderHttpError(ref, 409, '', { retryable: true }),
      new OverloadedError(ref, 529, 'Overloaded'),
    ]);
    const { delays, sleep } = recorder();
    await expect(withRetry(fn, { sleep, random: () => 0, baseDelayMs: 100 })).resolves.toBe('ok');
    expect(attempts).toEqual([0, 1, 2, 3]);
    expect(delays).toEqual([100, 200, 400]);
  });

  it('takes off up to 25 % as jitter and caps the delay', () => {
    expect(backoffDelay(0, { baseDelayMs: 1000, random: () => 0.999 })).toBe(750);
    expect(backoffDelay(10, { baseDelayMs: 1000, maxDelayMs: 8000, random: () => 0 })).toBe(8000);
  });

  it('stops after 3 retries with the last error, saying so', async () => {
    const errors = [500, 502, 503, 529].map((status) => new OverloadedError(ref, status, ''));
    const { fn, attempts } = flaky(errors);
    const { sleep } = recorder();
    const error = await withRetry(fn, { sleep, random: () => 0 }).catch((e: unknown) => e);
    expect(error).toBe(errors[3]);
    expect((error as ProviderError).attempts).toBe(4);
    expect((error as Error).message).toMatch(/Gave up after 4 attempts\.$/);
    expect(attempts).toHaveLength(4);
  });

  it('waits as long as retry-after says on a 429', async () => {
    const { fn } = flaky([new RateLimitError(ref, '', { retryAfterMs: 2000 }), new RateLimitError(ref, '')]);
    const { delays, sleep } = recorder();
    await withRetry(fn, { sleep, random: () => 0, baseDelayMs: 100 });
    expect(delays).toEqual([2000, 200]);
  });

  it('reports a retry-after beyond the cap at once instead of waiting', async () => {
    const { fn, attempts } = flaky([new RateLimitError(ref, 'slow down', { retryAfterMs: 120_000 })]);
    const { delays, sleep } = recorder();
    const error = await withRetry(fn, { sleep, maxRetryAfterMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryable).toBe(false);
    expect((error as Error).message).toContain('asks to wait 120 s');
    expect((error as Error).message).toContain('longer than the 60 s');
    expect((error as Error).message).toContain('slow down');
    expect(delays).toEqual([]);
    expect(attempts).toEqual([0]);
  });

  it.each([
    ['400', new ProviderHttpError(ref, 400, 'bad')],
    ['401', new AuthError(ref, 401, '')],
    ['403', new AuthError(ref, 403, '')],
    ['404', new ModelNotFoundError(ref, 404, '')],
    ['spend limit', new SpendLimitError(ref, 402, '')],
  ])('does not retry %s', async (_name, error) => {
    const { fn, attempts } = flaky([error]);
    await expect(withRetry(fn, { sleep: () => Promise.resolve() })).rejects.toBe(error);
    expect(attempts).toEqual([0]);
  });

  it('passes other errors through untouched', async () => {
    const boom = new TypeError('boom');
    await expect(withRetry(() => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('stops waiting the moment the signal aborts, even if the injected sleep ignores it', async () => {
    const controller = new AbortController();
    const { fn, attempts } = flaky([new OverloadedError(ref, 503, '')]);
    const never = () => new Promise<void>(() => undefined);
    const running = withRetry(fn, { signal: controller.signal, sleep: never });
    setTimeout(() => controller.abort(), 5);
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    expect(attempts).toEqual([0]);
  });

  it('ends the real timer on a timeout abort and reports the timeout', async () => {
    const controller = new AbortController();
    const { fn } = flaky([new RateLimitError(ref, '', { retryAfterMs: 30_000 })]);
    const started = Date.now();
    const running = withRetry(fn, { signal: controller.signal, label: 'OpenAI' });
    setTimeout(() => controller.abort(new SummaryTimeoutError(50)), 20);
    await expect(running).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('calls onRetry before each wait', async () => {
    const { fn } = flaky([new OverloadedError(ref, 500, '')]);
    const seen: Array<[number, number]> = [];
    await withRetry(fn, { sleep: () => Promise.resolve(), random: () => 0, onRetry: (info) => seen.push([info.attempt, info.delayMs]) });
    expect(seen).toEqual([[1, 500]]);
  });
});
