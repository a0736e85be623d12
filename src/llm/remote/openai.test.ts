import { afterEach, describe, expect, it } from 'vitest';
import { wrapTranscript } from '../../core/compaction/serialize.ts';
import { SummaryTimeoutError, type SummaryRequest } from '../../core/compaction/summarizer.ts';
import {
  AuthError, ContextOverflowError, EmptyReplyError, ModelNotFoundError, NetworkError, OverloadedError,
  ProviderHttpError, ProviderTimeoutError, RateLimitError, SpendLimitError, StreamError,
} from './errors.ts';
import type { StreamProgress } from './http.ts';
import { retryNotice } from './retry-notice.ts';
import { createOpenAISummarizer, type OpenAISummarizerConfig } from './openai.ts';
import { PROVIDER_PRESETS, SUMMARIZER_SYSTEM_PROMPT } from './presets.ts';
import { openAIErrorBody, openAIStream, renderedError, startFakeServer, unfenced } from './test-server.ts';
import { rejectionLog, useFakeServer } from './test-fixtures.ts';
import { CancelledError } from '../../core/cancel.ts';

const CANARY = 'sk-canary-DO-NOT-LEAK-4f9a1c7e2b';
const server = useFakeServer();
const { errors, failure } = rejectionLog();
const allBodies: unknown[] = [];

afterEach(() => void allBodies.push(...server.requests.map((r) => r.body)));

const transcript = Array.from({ length: 40 }, (_, i) => `[${i % 2 ? 'assistant' : 'user'}]: turn ${i} ${'lorem ipsum '.repeat(10)}`).join('\n\n');
const prompt = `${wrapTranscript(transcript)}\n\nWrite a structured summary of the conversation above.`;

function request(signal = new AbortController().signal, maxTokens?: number): SummaryRequest {
  return { taskId: 'history', promptId: 'pi-summary', prompt, entries: [], serialized: transcript, vars: {}, signal, ...(maxTokens !== undefined ? { maxTokens } : {}) };
}

function summarizer(extra: Partial<OpenAISummarizerConfig> = {}, delays: number[] = []) {
  return createOpenAISummarizer({
    baseUrl: `${server.url}/v1/`, model: 'gpt-4o-mini', apiKey: CANARY, label: 'Fake OpenAI', systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
    retry: { sleep: (ms) => (delays.push(ms), Promise.resolve()), random: () => 0 },
    ...extra,
  });
}

type Body = { model: string; messages: Array<{ role: string; content: string }>; stream: boolean; stream_options: unknown; tools?: unknown; max_tokens?: number; max_completion_tokens?: number };
const bodies = () => server.requests.map((r) => unfenced(r.body) as Body);

describe('createOpenAISummarizer: success', () => {
  it('streams the summary, with usage from the final chunk, over one plain request', async () => {
    server.reply({ events: openAIStream(['## Goal\n', 'Ship the ', 'parser.'], { usage: { prompt_tokens: 1834, completion_tokens: 9 } }) });
    const progress: StreamProgress[] = [];
    const deltas: string[] = [];
    const s = summarizer({ onToken: (delta, p) => (deltas.push(delta), progress.push(p)), maxTokens: 4000 });
    expect(s.id).toBe('openai');
    const response = await s.summarize(request(undefined, 13_107));
    expect(response).toEqual({ text: '## Goal\nShip the parser.', model: 'gpt-4o-mini-2024-07-18', usage: { input: 1834, output: 9 } });

    const [recorded] = server.requests;
    expect(recorded!.method).toBe('POST');
    expect(recorded!.path).toBe('/v1/chat/completions');
    expect(recorded!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(recorded!.headers['content-type']).toBe('application/json');
    const body = unfenced(recorded!.body) as Body;
    expect((recorded!.body as Body).messages[1]!.content).toMatch(/^<conversation-\d{24}>\n\[user\]: turn 0 /);
    expect(body).toEqual({
      model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, max_tokens: 4000,
      messages: [{ role: 'system', content: SUMMARIZER_SYSTEM_PROMPT }, { role: 'user', content: prompt }],
    });
    expect(deltas).toEqual(['## Goal\n', 'Ship the ', 'parser.', '']);
    expect(progress.at(-1)).toMatchObject({ taskId: 'history', attempt: 0, text: '## Goal\nShip the parser.', tokens: 9, done: true });
    expect(progress.every((p) => p.tokensPerSecond >= 0)).toBe(true);
  });

  it('sends no Authorization header without a key, and uses max_completion_tokens on api.openai.com', async () => {
    server.reply({ events: openAIStream('ok') });
    await summarizer({ apiKey: undefined }).summarize(request());
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(bodies()[0]).not.toHaveProperty('max_tokens');

    const seen: Array<[string, unknown]> = [];
    const fakeFetch: typeof fetch = (input, init) => {
      seen.push([String(input), JSON.parse(String(init?.body))]);
      return fetch(`${server.url}/v1/chat/completions`, init);
    };
    server.reply({ events: openAIStream('ok') });
    const real = createOpenAISummarizer({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-5-mini', apiKey: CANARY, fetch: fakeFetch, systemPrompt: SUMMARIZER_SYSTEM_PROMPT });
    expect(real.label).toBe('OpenAI · gpt-5-mini');
    await real.summarize(request(undefined, 2048));
    expect(seen[0]![0]).toBe('https://api.openai.com/v1/chat/completions');
    expect(seen[0]![1]).toMatchObject({ max_completion_tokens: 2048 });
  });

  it('names itself after the preset of its base URL', () => {
    const ollama = PROVIDER_PRESETS.find((p) => p.id === 'ollama')!;
    expect(ollama.baseUrl).toBe('http://localhost:11434/v1');
    const s = createOpenAISummarizer({ baseUrl: `${ollama.baseUrl}/`, model: 'qwen3:4b', systemPrompt: SUMMARIZER_SYSTEM_PROMPT });
    expect([s.id, s.label]).toEqual(['ollama', 'Ollama · qwen3:4b']);
    expect(PROVIDER_PRESETS.map((p) => [p.id, p.baseUrl])).toEqual([
      ['openai', 'https://api.openai.com/v1'], ['anthropic', 'https://api.anthropic.com'], ['openrouter', 'https://openrouter.ai/api/v1'],
      ['ollama', 'http://localhost:11434/v1'], ['lmstudio', 'http://localhost:1234/v1'], ['vllm', 'http://localhost:8000/v1'], ['llamacpp', 'http://localhost:8080/v1'],
    ]);
  });

  it('accepts a server that ignored stream: true and sent one JSON completion', async () => {
    server.reply({ json: { id: 'x', object: 'chat.completion', model: 'llama', choices: [{ index: 0, message: { role: 'assistant', content: 'whole summary' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 2 } } });
    await expect(summarizer().summarize(request())).resolves.toEqual({ text: 'whole summary', model: 'llama', usage: { input: 10, output: 2 } });
  });
});

describe('createOpenAISummarizer: retries', () => {
  it('honours retry-after on a 429 (seconds, then ms), then succeeds', async () => {
    const tpm = openAIErrorBody('Rate limit reached for gpt-4o-mini in organization org-AbC on tokens per min (TPM): Limit 200000, Used 199000, Requested 5400. Please try again in 1.62s.', 'tokens', 'rate_limit_exceeded');
    server.reply(
      { status: 429, headers: { 'retry-after': '2' }, json: tpm },
      { status: 429, headers: { 'retry-after-ms': '1620' }, json: tpm },
      { events: openAIStream('done') },
    );
    const delays: number[] = [];
    await expect(summarizer({}, delays).summarize(request())).resolves.toMatchObject({ text: 'done' });
    expect(delays).toEqual([2000, 1620]);
    expect(server.requests).toHaveLength(3);
  });

  it('honours retry-after as an HTTP date', async () => {
    server.reply({ status: 429, headers: { 'retry-after': new Date(Date.now() + 5000).toUTCString() }, json: {} }, { events: openAIStream('done') });
    const delays: number[] = [];
    await summarizer({}, delays).summarize(request());
    expect(delays[0]).toBeGreaterThan(3000);
    expect(delays[0]).toBeLessThanOrEqual(5000);
  });

  it('does not wait past the cap: a clear RateLimitError instead', async () => {
    server.reply({ status: 429, headers: { 'retry-after': '3600' }, json: openAIErrorBody('Rate limit reached for requests per day (RPD).', 'requests', 'rate_limit_exceeded') });
    const delays: number[] = [];
    const error = await failure(summarizer({}, delays).summarize(request()));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain('asks to wait 60 min');
    expect(error.message).toContain('longer than the 60 s Foldlab waits');
    expect(delays).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 that talks about tokens per minute is a rate limit, not an overflow', async () => {
    const body = openAIErrorBody('Request too large for gpt-4o in organization org-AbC on tokens per min (TPM): Limit 30000, Requested 52000. The input or output tokens must be reduced in order to run successfully.', 'tokens', 'rate_limit_exceeded');
    server.reply(...Array.from({ length: 4 }, () => ({ status: 429, json: body })));
    const delays: number[] = [];
    const error = await failure(summarizer({}, delays).summarize(request()));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toBeInstanceOf(ContextOverflowError);
    // Retried as a rate limit with backoff; the prompt was never truncated.
    expect(delays).toEqual([500, 1000, 2000]);
    expect(bodies().every((b) => b.messages[1]!.content === prompt)).toBe(true);
    // Each request, retries included, fenced the transcript with a tag of its own.
    const tags = server.requests.map((r) => /<(conversation-\d{24})>/.exec((r.body as Body).messages[1]!.content)?.[1]);
    expect(tags.every(Boolean)).toBe(true);
    expect(new Set(tags).size).toBe(tags.length);
  });

  it.each([408, 409, 500, 529])('retries %i at most 3 times', async (status) => {
    server.reply(...Array.from({ length: 5 }, () => ({ status, json: openAIErrorBody('The server had an error while processing your request.', 'server_error') })));
    const delays: number[] = [];
    const error = await failure(summarizer({}, delays).summarize(request()));
    expect(error).toBeInstanceOf(status >= 500 ? OverloadedError : ProviderHttpError);
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain('Gave up after 4 attempts');
    expect(server.requests).toHaveLength(4);
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it('recovers when a retry succeeds', async () => {
    server.reply({ status: 502, text: '<html>Bad Gateway</html>' }, { events: openAIStream('after a blip') });
    await expect(summarizer().summarize(request())).resolves.toMatchObject({ text: 'after a blip' });
  });

  it.each([
    ['400', 400, openAIErrorBody("Invalid value for 'temperature': must be between 0 and 2.", 'invalid_request_error', 'invalid_value'), ProviderHttpError],
    ['401', 401, openAIErrorBody(`Incorrect API key provided: ${CANARY}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key'), AuthError],
    ['403', 403, openAIErrorBody('Project does not have access to model gpt-4o-mini', 'invalid_request_error', 'model_not_found'), AuthError],
    ['404', 404, openAIErrorBody('The model `gpt-4o-mini` does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'), ModelNotFoundError],
    ['a spend limit (insufficient_quota)', 429, openAIErrorBody('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota'), SpendLimitError],
    ['a spend limit (billing_hard_limit_reached)', 400, openAIErrorBody('Billing hard limit has been reached', 'invalid_request_error', 'billing_hard_limit_reached'), SpendLimitError],
    ['a quota in a 429 without a code', 429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'requests', param: null, code: null } }, SpendLimitError],
    ['a spend limit (402)', 402, { error: { message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits', code: 402 } }, SpendLimitError],
  ])('does not retry %s', async (_name, status, json, type) => {
    server.reply({ status, json }, { events: openAIStream('should not be asked for') });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(type);
    expect(server.requests).toHaveLength(1);
  });

  it('says "wrong or missing key" on a 401', async () => {
    server.reply({ status: 401, json: openAIErrorBody(`Incorrect API key provided: ${CANARY}.`, 'invalid_request_error', 'invalid_api_key') });
    const error = await failure(summarizer().summarize(request()));
    expect(error.message).toMatch(/^Fake OpenAI refused the request \(HTTP 401\): wrong or missing key\. Check the API key/);
  });
});

describe('createOpenAISummarizer: broken streams', () => {
  it('a stream cut mid-way is a StreamError, never a short summary', async () => {
    const frames = openAIStream(['The first half ', 'of the summary']);
    server.reply({ events: frames.slice(0, 2), cut: true });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(StreamError);
    expect(error.message).toContain('connection was cut');
    expect(error.message).toContain('after 15 characters');
    expect(server.requests).toHaveLength(1);
  });

  it('a stream that ends without [DONE] is a StreamError', async () => {
    server.reply({ events: openAIStream('complete-looking text', { done: false }) });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(StreamError);
    expect(error.message).toContain('without its final [DONE]');
  });

  it('an unreadable chunk is a StreamError', async () => {
    server.reply({ events: ['data: {"choices":[{"delta":{"content":"a"}}\n\n', 'data: [DONE]\n\n'] });
    expect(await failure(summarizer().summarize(request()))).toBeInstanceOf(StreamError);
  });

  it('an error object inside the stream gets its own class (and is retried when transient)', async () => {
    server.reply(
      { events: ['data: {"id":"gen-1","object":"chat.completion.chunk","error":{"code":502,"message":"Provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n'] },
      { events: openAIStream('second try') },
    );
    await expect(summarizer().summarize(request())).resolves.toMatchObject({ text: 'second try' });
  });

  it('an empty reply is an error that says what to do', async () => {
    server.reply({ events: openAIStream([], { finishReason: 'length' }) });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(EmptyReplyError);
    expect(error.message).toContain('raise max tokens');
  });

  it('an unreachable server is a NetworkError naming the base URL and CORS, not retried', async () => {
    const closed = await startFakeServer();
    await closed.close();
    const error = await failure(createOpenAISummarizer({ baseUrl: `${closed.url}/v1`, model: 'm', apiKey: CANARY, systemPrompt: SUMMARIZER_SYSTEM_PROMPT }).summarize(request()));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`Could not reach OpenAI-compatible server at ${closed.url}/v1 (ECONNREFUSED): network down or CORS refused: check the base URL and that the server allows this origin (Ollama: set OLLAMA_ORIGINS; LM Studio: enable CORS).`);
    expect((error as NetworkError).attempts).toBe(1);
  });

  it('the command line retries a refused connection with backoff, a bounded number of times, saying so before each wait', async () => {
    const closed = await startFakeServer();
    await closed.close();
    const notices: string[] = [];
    const waits: number[] = [];
    const summarizer = createOpenAISummarizer({
      baseUrl: `${closed.url}/v1`, model: 'm', apiKey: CANARY, systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
      retry: { retryNetworkErrors: true, random: () => 0, sleep: (ms) => { waits.push(ms); return Promise.resolve(); }, onRetry: (wait) => void notices.push(retryNotice(wait, 'request 1 (a summary)')) },
    });
    const error = await failure(summarizer.summarize(request()));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(4);
    expect(error.message).toMatch(/\(ECONNREFUSED\).* Gave up after 4 attempts\.$/);
    expect(waits).toEqual([500, 1000, 2000]);
    expect(notices[0]).toBe('Waiting 500 ms (backoff) before attempt 2 of 4 of request 1 (a summary) to OpenAI-compatible server · m: NetworkError (ECONNREFUSED).');
    expect(notices).toHaveLength(3);
  });
});

describe('createOpenAISummarizer: what comes back is inert', () => {
  it('strips images, links and raw HTML from the summary before anyone stores it', async () => {
    server.reply({ events: openAIStream(['## Goal\nShip it. ', '![x](https://evil.example/p.png?k=SECRET) ', '[docs](javascript:alert(1)) <img src=x onerror=alert(1)>']) });
    const response = await summarizer().summarize(request());
    expect(response.text).toBe('## Goal\nShip it. [image: x] docs ‹img src=x onerror=alert(1)›');
  });
});

describe('createOpenAISummarizer: context overflow', () => {
  const overflow = { status: 400, json: openAIErrorBody("This model's maximum context length is 128000 tokens. However, your messages resulted in 210345 tokens. Please reduce the length of the messages.", 'invalid_request_error', 'context_length_exceeded') };

  it('drops the oldest half of the transcript and retries once', async () => {
    server.reply(overflow, { events: openAIStream('summary of the newer half') });
    await expect(summarizer().summarize(request())).resolves.toMatchObject({ text: 'summary of the newer half' });
    const [first, second] = bodies().map((b) => b.messages[1]!.content);
    expect(first).toBe(prompt);
    expect(second!.length).toBeLessThan(first!.length * 0.6);
    expect(second).toMatch(/^<conversation>\n\[… the oldest \d+ lines of this conversation were left out/);
    expect(second).not.toContain('turn 0 ');
    expect(second).toContain('turn 39 ');
    expect(second!.endsWith('</conversation>\n\nWrite a structured summary of the conversation above.')).toBe(true);
  });

  it('reports a second overflow as ContextOverflowError', async () => {
    server.reply(overflow, overflow, { events: openAIStream('never') });
    const error = await failure(summarizer().summarize(request()));
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error.message).toContain('even with the oldest half of the transcript dropped');
    expect(server.requests).toHaveLength(2);
  });
});

describe('createOpenAISummarizer: abort', () => {
  const slow = () => ({ events: openAIStream(Array.from({ length: 50 }, (_, i) => `word${i} `)), delayMs: 100 });

  it('rejects promptly with the cancel when the user aborts mid-stream', async () => {
    server.reply(slow());
    const controller = new AbortController();
    let at = 0;
    const running = summarizer({ onToken: () => void (at ||= Date.now(), controller.abort()) }).summarize(request(controller.signal));
    const error = await failure(running);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toBeInstanceOf(CancelledError);
    expect(Date.now() - at).toBeLessThan(500);
  });

  it('says timeout, not cancel, when the signal\'s reason is the orchestrator\'s timeout', async () => {
    server.reply(slow());
    const controller = new AbortController();
    const running = summarizer().summarize(request(controller.signal));
    setTimeout(() => controller.abort(new SummaryTimeoutError(300)), 300);
    const error = await failure(running);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toBeInstanceOf(SummaryTimeoutError);
    expect(error.message).toContain('Fake OpenAI did not finish the summary within 0.3 s');
  });

  it('an abort before the first event cancels too', async () => {
    server.reply({ ...slow(), delayMs: 2000 });
    const controller = new AbortController();
    const running = summarizer().summarize(request(controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await failure(running)).toBeInstanceOf(CancelledError);
  });
});

describe('the key', () => {
  it('never appears in any error, and no request carries tools', () => {
    expect(errors.length).toBeGreaterThan(15);
    for (const error of errors) expect(renderedError(error)).not.toContain(CANARY);
    expect(allBodies.length).toBeGreaterThan(30);
    for (const body of allBodies) {
      expect(body).not.toHaveProperty('tools');
      expect(body).not.toHaveProperty('tool_choice');
    }
  });
});
