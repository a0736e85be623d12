import { afterEach, describe, expect, it } from 'vitest';
import { wrapTranscript } from '../../core/compaction/serialize.ts';
import { SummaryTimeoutError, type SummaryRequest } from '../../core/compaction/summarizer.ts';
import { createAnthropicSummarizer, type AnthropicSummarizerConfig } from './anthropic.ts';
import {
  AuthError, ContextOverflowError, ModelNotFoundError, OverloadedError, ProviderHttpError,
  ProviderTimeoutError, RateLimitError, SpendLimitError, StreamError,
} from './errors.ts';
import { SUMMARIZER_SYSTEM_PROMPT } from './presets.ts';
import { anthropicErrorBody, anthropicErrorEvent, anthropicStream, renderedError, unfenced } from './test-server.ts';
import { rejectionLog, useFakeServer } from './test-fixtures.ts';
import { CancelledError } from '../../core/cancel.ts';

const CANARY = 'sk-ant-api03-CANARY-never-show-me-7d41';
const server = useFakeServer();
const { errors, failure } = rejectionLog();
const allBodies: unknown[] = [];

afterEach(() => void allBodies.push(...server.requests.map((r) => r.body)));

const transcript = Array.from({ length: 30 }, (_, i) => `[user]: step ${i} ${'detail '.repeat(12)}`).join('\n\n');
const prompt = `Summarize this.\n\n${wrapTranscript(transcript)}\n\nUse the sections Goal, Progress, Next Steps.`;
const request = (signal = new AbortController().signal, maxTokens?: number): SummaryRequest =>
  ({ taskId: 'history', promptId: 'pi-summary', prompt, entries: [], serialized: transcript, vars: {}, signal, ...(maxTokens !== undefined ? { maxTokens } : {}) });

function summarizer(extra: Partial<AnthropicSummarizerConfig> = {}, delays: number[] = []) {
  return createAnthropicSummarizer({
    baseUrl: server.url, model: 'claude-sonnet-4-5', apiKey: CANARY, systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
    retry: { sleep: (ms) => (delays.push(ms), Promise.resolve()), random: () => 0 },
    ...extra,
  });
}

describe('createAnthropicSummarizer', () => {
  it('streams the summary with usage from message_start and message_delta', async () => {
    server.reply({ events: anthropicStream(['## Goal\n', 'Fix the build.'], { inputTokens: 2100, outputTokens: 7 }) });
    const texts: string[] = [];
    const s = summarizer({ onToken: (_delta, progress) => texts.push(progress.text) });
    expect([s.id, s.label]).toEqual(['anthropic', 'Anthropic · claude-sonnet-4-5']);
    const response = await s.summarize(request(undefined, 13_107));
    expect(response).toEqual({ text: '## Goal\nFix the build.', model: 'claude-sonnet-4-5-20250929', usage: { input: 2100, output: 7 } });
    expect(texts).toEqual(['## Goal\n', '## Goal\nFix the build.', '## Goal\nFix the build.']);

    const [recorded] = server.requests;
    expect(recorded!.path).toBe('/v1/messages');
    expect(recorded!.headers).toMatchObject({
      'x-api-key': CANARY,
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
      'content-type': 'application/json',
    });
    expect(recorded!.headers.authorization).toBeUndefined();
    expect(unfenced(recorded!.body)).toEqual({
      model: 'claude-sonnet-4-5', max_tokens: 13_107, system: SUMMARIZER_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: prompt }], stream: true,
    });
  });

  it('caps max_tokens with the configured limit, and defaults it when nobody sets one', async () => {
    server.reply({ events: anthropicStream('a') }, { events: anthropicStream('b') });
    await summarizer({ maxTokens: 4096 }).summarize(request(undefined, 13_107));
    await summarizer().summarize(request());
    expect(server.requests.map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([4096, 8192]);
  });

  it('a stream without message_stop is a StreamError', async () => {
    server.reply({ events: anthropicStream('looks complete', { stop: false }) });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(StreamError);
    expect(error.message).toContain('without its final message_stop');
  });

  it('a stream cut mid-way is a StreamError', async () => {
    server.reply({ events: anthropicStream(['partial ', 'text']).slice(0, 4), cut: true });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(StreamError);
    expect(error.message).toContain('after 8 characters');
  });

  it('an overloaded_error event mid-stream is an OverloadedError, retried', async () => {
    const frames = anthropicStream(['half']);
    server.reply(
      { events: [...frames.slice(0, 4), anthropicErrorEvent('overloaded_error', 'Overloaded')] },
      { events: anthropicStream('recovered') },
    );
    const texts: Array<[number, string]> = [];
    const response = await summarizer({ onToken: (_d, p) => texts.push([p.attempt, p.text]) }).summarize(request());
    expect(response.text).toBe('recovered');
    expect(texts[0]).toEqual([0, 'half']);
    expect(texts.at(-1)).toEqual([1, 'recovered']);
  });

  it.each([
    ['overloaded_error', OverloadedError],
    ['rate_limit_error', RateLimitError],
    ['api_error', OverloadedError],
  ])('a %s event that keeps coming gives up after 3 retries', async (type, cls) => {
    server.reply(...Array.from({ length: 4 }, () => ({ events: [...anthropicStream('x').slice(0, 1), anthropicErrorEvent(type, 'Overloaded')] })));
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(cls);
    expect(server.requests).toHaveLength(4);
  });

  it('529 with retry-after is retried after that wait', async () => {
    server.reply({ status: 529, headers: { 'retry-after': '4' }, json: anthropicErrorBody('overloaded_error', 'Overloaded') }, { events: anthropicStream('ok') });
    const delays: number[] = [];
    await summarizer({}, delays).summarize(request());
    expect(delays).toEqual([4000]);
  });

  it.each([
    ['401', 401, anthropicErrorBody('authentication_error', 'invalid x-api-key'), AuthError],
    ['403', 403, anthropicErrorBody('permission_error', 'Your API key does not have permission to use the specified resource.'), AuthError],
    ['404', 404, anthropicErrorBody('not_found_error', 'model: claude-sonnet-4-5'), ModelNotFoundError],
    ['400', 400, anthropicErrorBody('invalid_request_error', 'max_tokens: 13107 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku'), ProviderHttpError],
    ['a credit balance', 400, anthropicErrorBody('invalid_request_error', 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.'), SpendLimitError],
    ['a usage limit', 400, anthropicErrorBody('invalid_request_error', 'You have reached your specified API usage limits. You will regain access on 2026-01-01 at 00:00 UTC.'), SpendLimitError],
    ['a billing_error', 402, anthropicErrorBody('billing_error', 'There is an issue with your billing.'), SpendLimitError],
  ])('does not retry %s', async (_name, status, json, cls) => {
    server.reply({ status, json, headers: { 'x-should-retry': 'false' } }, { events: anthropicStream('not asked') });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(cls);
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 enforced_spend_limit_reached (no retry-after, no x-should-retry) is a spend limit: one request, no "wait a minute"', async () => {
    // Anthropic's body for an organization's monthly spend cap: a rate_limit_error type, the cause in details.error_code.
    const json = { type: 'error', error: { type: 'rate_limit_error', message: 'You have reached your API usage limits: your organization has crossed its monthly API usage threshold.', details: { error_code: 'enforced_spend_limit_reached' } }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' };
    server.reply({ status: 429, json }, { status: 429, json }, { status: 429, json }, { events: anthropicStream('not asked') });
    const delays: number[] = [];
    const error = await failure(summarizer({}, delays).summarize(request()));
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(error.message).toContain('enforced_spend_limit_reached');
    expect(error.message).toMatch(/Waiting will not help.*raise the spend limit or usage tier in the provider's console/);
    expect(error.message).not.toMatch(/wait a minute/i);
  });

  it('"prompt is too long": truncated and retried once, then ContextOverflowError', async () => {
    const tooLong = { status: 400, json: anthropicErrorBody('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum') };
    server.reply(tooLong, { events: anthropicStream('newer half summary') });
    await expect(summarizer().summarize(request())).resolves.toMatchObject({ text: 'newer half summary' });
    const second = unfenced(server.requests[1]!.body as { messages: Array<{ content: string }> }).messages[0]!.content;
    expect(second.startsWith('Summarize this.\n\n<conversation>\n[… the oldest')).toBe(true);
    expect(second).not.toContain('step 0 ');
    expect(second).toContain('step 29 ');
    expect(second.endsWith('</conversation>\n\nUse the sections Goal, Progress, Next Steps.')).toBe(true);

    server.reset();
    server.reply(tooLong, tooLong);
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(server.requests).toHaveLength(2);
  });

  it('a rate limit that asks to "reduce the prompt length" is not an overflow', async () => {
    const body = anthropicErrorBody('rate_limit_error', 'This request would exceed the rate limit for your organization (5b1c) of 40,000 input tokens per minute. Please reduce the prompt length or the maximum tokens requested, or try again later.');
    server.reply({ status: 429, headers: { 'retry-after': '12' }, json: body }, { events: anthropicStream('fine') });
    const delays: number[] = [];
    await summarizer({}, delays).summarize(request());
    expect(delays).toEqual([12_000]);
    expect(unfenced(server.requests[1]!.body as { messages: Array<{ content: string }> }).messages[0]!.content).toBe(prompt);
  });

  it('abort mid-stream: cancel or timeout by the signal\'s reason, promptly', async () => {
    const slow = () => ({ events: anthropicStream(Array.from({ length: 40 }, (_, i) => `w${i} `)), delayMs: 100 });
    server.reply(slow(), slow());
    const cancel = new AbortController();
    const started = Date.now();
    setTimeout(() => cancel.abort(), 250);
    expect(await failure(summarizer().summarize(request(cancel.signal)))).toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(800);

    const timeout = new AbortController();
    setTimeout(() => timeout.abort(new SummaryTimeoutError(250)), 250);
    expect(await failure(summarizer().summarize(request(timeout.signal)))).toBeInstanceOf(ProviderTimeoutError);
  });

  it('never shows the key in an error, even when the server echoes it; no request carries tools', async () => {
    server.reply({ status: 401, json: anthropicErrorBody('authentication_error', `invalid x-api-key: ${CANARY}`) });
    await failure(summarizer().summarize(request()));
    expect(errors.length).toBeGreaterThan(12);
    for (const error of errors) expect(renderedError(error)).not.toContain(CANARY);
    allBodies.push(...server.requests.map((r) => r.body));
    for (const body of allBodies) expect(body).not.toHaveProperty('tools');
  });
});
