import { describe, expect, it } from 'vitest';
import { OverloadedError, RateLimitError } from './errors.ts';
import { retryNotice } from './retry-notice.ts';

const provider = { id: 'openai', label: 'OpenAI', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' };

describe('retryNotice', () => {
  it('names the request, the server-asked wait, the next attempt and the reason of a 429', () => {
    const error = new RateLimitError(provider, 'slow down', { retryAfterMs: 20_000 });
    expect(retryNotice({ attempt: 1, delayMs: 20_000, error }, 'request 3 (a reply)')).toBe(
      'Waiting 20 s (as the server asked) before attempt 2 of 4 of request 3 (a reply) to OpenAI · gpt-4o-mini: rate limited (HTTP 429).',
    );
  });

  it('says backoff when the wait is Foldlab\'s own, with the status of the failure', () => {
    const error = new OverloadedError(provider, 529, 'overloaded');
    expect(retryNotice({ attempt: 2, delayMs: 850, error }, 'request 1 (a summary)', 5)).toBe(
      'Waiting 850 ms (backoff) before attempt 3 of 6 of request 1 (a summary) to OpenAI · gpt-4o-mini: OverloadedError (HTTP 529).',
    );
  });
});
