import { describe, expect, it } from 'vitest';
import { SummaryTimeoutError } from '../../core/compaction/summarizer.ts';
import {
  AuthError, ContextOverflowError, ModelNotFoundError, OverloadedError, ProviderHttpError,
  ProviderTimeoutError, RateLimitError, SpendLimitError, abortError, displayUrl, isContextOverflow, redact, type ProviderRef,
} from './errors.ts';
import { errorFromResponse, parseRetryAfter, statusOfStreamError } from './http.ts';
import { CancelledError } from '../../core/cancel.ts';

const ref: ProviderRef = { id: 'openai', label: 'OpenAI', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' };
const json = (value: unknown) => JSON.stringify(value);

// Bodies as the providers send them.
const OVERFLOWS: Array<[string, number | undefined, string]> = [
  ['OpenAI', 400, json({ error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 210345 tokens. Please reduce the length of the messages.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } })],
  ['Anthropic', 400, json({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } })],
  ['WebLLM', undefined, 'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.'],
  ['llama.cpp', 400, json({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 5000, n_ctx: 4096 } })],
  ['vLLM', 400, json({ object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError', param: null, code: 400 })],
  ['LM Studio', 400, json({ error: 'Trying to keep the first 5309 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input' })],
  ['OpenRouter', 400, json({ error: { message: "This endpoint's maximum context length is 131072 tokens. However, you requested about 250000 tokens (250000 of text input). Please reduce the length of either one, or use the \"middle-out\" transform to compress your prompt automatically.", code: 400 } })],
  ['Anthropic 413', 413, json({ type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } })],
];

const THROTTLES: Array<[string, number, string]> = [
  ['OpenAI TPM', 429, json({ error: { message: 'Rate limit reached for gpt-4o-mini in organization org-AbC123 on tokens per min (TPM): Limit 200000, Used 199000, Requested 5400. Please try again in 1.62s. Visit https://platform.openai.com/account/rate-limits to learn more.', type: 'tokens', param: null, code: 'rate_limit_exceeded' } })],
  ['OpenAI request too large for TPM', 429, json({ error: { message: 'Request too large for gpt-4o in organization org-AbC123 on tokens per min (TPM): Limit 30000, Requested 52000. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.', type: 'tokens', param: null, code: 'rate_limit_exceeded' } })],
  ['Anthropic ITPM', 429, json({ type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization (5b1c) of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.' } })],
  ['Groq 413 on TPM', 413, json({ error: { message: 'Request too large for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 9000, please reduce your message size and try again.', type: 'tokens', code: 'rate_limit_exceeded' } })],
];

describe('isContextOverflow', () => {
  it.each(OVERFLOWS)('recognizes the %s wording', (_name, status, body) => {
    expect(isContextOverflow(status, body)).toBe(true);
  });

  it.each(THROTTLES)('does not take a throttle for an overflow: %s', (_name, status, body) => {
    expect(isContextOverflow(status, body)).toBe(false);
    // Whatever status it comes with.
    expect(isContextOverflow(400, body)).toBe(false);
  });

  it('does not take other refusals for an overflow', () => {
    expect(isContextOverflow(529, json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))).toBe(false);
    expect(isContextOverflow(400, json({ error: { message: "Invalid value for 'temperature': must be between 0 and 2.", type: 'invalid_request_error', code: 'invalid_value' } }))).toBe(false);
    expect(isContextOverflow(500, '<html>Bad gateway</html>')).toBe(false);
  });
});

describe('errorFromResponse', () => {
  const classify = (status: number, body: unknown, headers?: Record<string, string>) =>
    errorFromResponse(ref, status, typeof body === 'string' ? body : json(body), new Headers(headers));

  it('names each refusal', () => {
    expect(classify(401, { error: { message: 'Incorrect API key provided: sk-proj-****abcd.', type: 'invalid_request_error', code: 'invalid_api_key' } })).toBeInstanceOf(AuthError);
    expect(classify(403, { type: 'error', error: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' } })).toBeInstanceOf(AuthError);
    expect(classify(404, { error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' } })).toBeInstanceOf(ModelNotFoundError);
    expect(classify(400, { error: { message: 'model "qwen9" not found, try pulling it first', code: 'model_not_found' } })).toBeInstanceOf(ModelNotFoundError);
    expect(classify(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toBeInstanceOf(OverloadedError);
    expect(classify(503, 'Service Unavailable')).toBeInstanceOf(OverloadedError);
    for (const [, status, body] of OVERFLOWS.filter(([, s]) => s !== undefined)) expect(classify(status!, body)).toBeInstanceOf(ContextOverflowError);
    for (const [, status, body] of THROTTLES.filter(([, s]) => s === 429)) expect(classify(status, body)).toBeInstanceOf(RateLimitError);
  });

  it('tells a spend limit from a rate limit, and never retries it', () => {
    const quota = classify(429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } });
    const credit = classify(400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' } });
    const usage = classify(400, { type: 'error', error: { type: 'invalid_request_error', message: 'You have reached your specified API usage limits. You will regain access on 2026-01-01 at 00:00 UTC.' } });
    const openrouter = classify(402, { error: { message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits', code: 402 } });
    for (const error of [quota, credit, usage, openrouter]) {
      expect(error).toBeInstanceOf(SpendLimitError);
      expect(error.retryable).toBe(false);
    }
  });

  it('takes an Anthropic 429 with details.error_code enforced_spend_limit_reached for a spend limit, even in a stream', () => {
    const body = { type: 'error', error: { type: 'rate_limit_error', message: 'You have reached your API usage limits.', details: { error_code: 'enforced_spend_limit_reached' } } };
    const error = classify(429, body);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error.code).toBe('enforced_spend_limit_reached');
    expect(error.retryable).toBe(false);
    // The same error object met inside a 200 stream stands for a 429 and classifies the same way.
    expect(errorFromResponse(ref, statusOfStreamError(body), json(body))).toBeInstanceOf(SpendLimitError);
    // An ordinary throttle that mentions billing (OpenAI's wording) stays a rate limit.
    const throttle = classify(429, { error: { message: 'Rate limit reached for gpt-4o on requests per min (RPM): Limit 3. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.', type: 'requests', code: 'rate_limit_exceeded' } });
    expect(throttle).toBeInstanceOf(RateLimitError);
    expect(throttle.retryable).toBe(true);
  });

  it('marks only transient failures retryable, and honours x-should-retry: false', () => {
    expect([408, 409, 429, 500, 502, 529].map((s) => classify(s, {}).retryable)).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map((s) => classify(s, {}).retryable)).toEqual([false, false, false, false, false]);
    expect(classify(400, {})).toBeInstanceOf(ProviderHttpError);
    expect(classify(500, {}, { 'x-should-retry': 'false' }).retryable).toBe(false);
  });

  it('reads the wait from retry-after-ms, retry-after seconds or an HTTP date', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 12:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(classify(429, {}, { 'retry-after': '3' }).retryAfterMs).toBe(3000);
  });

  it('maps errors met inside a stream to the status they stand for', () => {
    expect(statusOfStreamError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toBe(529);
    expect(statusOfStreamError({ type: 'error', error: { type: 'rate_limit_error', message: 'x' } })).toBe(429);
    expect(statusOfStreamError({ error: { code: 502, message: 'Provider disconnected' } })).toBe(502);
    expect(statusOfStreamError({ error: { message: 'prompt is too long: 5 tokens > 4 maximum' } })).toBe(400);
    expect(statusOfStreamError({ error: { message: 'boom' } })).toBe(500);
  });
});

describe('keys and URLs stay out of messages', () => {
  it('redacts the key, key-shaped tokens, bearer tokens and key query parameters', () => {
    expect(redact('Incorrect API key provided: my-custom-key-123456.', 'my-custom-key-123456')).toBe('Incorrect API key provided: [redacted].');
    expect(redact('key sk-proj-abcDEF123456 here')).toBe('key [redacted] here');
    expect(redact('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [redacted]');
    expect(redact('https://x/?key=AIza123&x=1')).toBe('https://x/?key=[redacted]&x=1');
  });

  it('shows base URLs without credentials or query', () => {
    expect(displayUrl('https://user:pass@proxy.example/v1/?api_key=secret')).toBe('https://proxy.example/v1');
  });

  it('quotes a server message that echoes the key only redacted', () => {
    const error = errorFromResponse(ref, 401, json({ error: { message: 'Incorrect API key provided: canary-0123456789.' } }), new Headers(), 'canary-0123456789');
    expect(error.message).not.toContain('canary-0123456789');
    expect(error.message).toContain('wrong or missing key');
  });
});

describe('abortError', () => {
  it('tells the orchestrator\'s timeout from a cancel by the signal\'s reason', () => {
    const timedOut = AbortSignal.abort(new SummaryTimeoutError(120_000));
    const timeout = abortError(timedOut, 'OpenAI');
    expect(timeout).toBeInstanceOf(ProviderTimeoutError);
    expect(timeout).toBeInstanceOf(SummaryTimeoutError);
    expect(timeout.message).toContain('within 120 s');

    const cancel = abortError(AbortSignal.abort(), 'OpenAI');
    expect(cancel).toBeInstanceOf(CancelledError);
    expect(cancel).toBeInstanceOf(CancelledError);

    const domTimeout = new DOMException('The operation timed out.', 'TimeoutError');
    expect(abortError(AbortSignal.abort(domTimeout), 'OpenAI')).toBeInstanceOf(ProviderTimeoutError);
  });
});
