// Connect and idle timeouts against a real local server: one that answers its headers and one
// event then goes quiet, one that never answers at all. Each provider path (OpenAI and Anthropic
// summaries, OpenAI and Anthropic agent replies, a non-streamed body) fails with the timeout that
// fired, named with its length, and the caller's own signal is left alone.
import { describe, expect, it } from 'vitest';
import { SummaryTimeoutError, type SummaryRequest } from '../../core/compaction/summarizer.ts';
import type { ModelRequest } from '../../core/agent/types.ts';
import { createAnthropicAgentModel } from '../agent/agent-anthropic.ts';
import { createAnthropicSummarizer } from './anthropic.ts';
import { createOpenAIAgentModel } from '../agent/agent-openai.ts';
import { ConnectTimeoutError, IdleTimeoutError, ProviderTimeoutError } from './errors.ts';
import { post } from './http.ts';
import { createOpenAISummarizer } from './openai.ts';
import { anthropicStream, openAIStream } from './test-server.ts';
import { contextItem, READ_TOOLS, rejectionWithout, useFakeServer } from './test-fixtures.ts';
import { SUMMARIZER_SYSTEM_PROMPT } from './presets.ts';
import { createAgentModel } from '../agent/agent-model.ts';
import type { RemoteConfig } from './remote-config.ts';
import { createRemoteSummarizerWith } from './remote-summarizer.ts';
import { DEFAULT_TIMEOUT_SECONDS, requestTimeouts, timeoutProblem } from './timeouts.ts';

const KEY = 'sk-canary-timeouts-7c1e';
const server = useFakeServer();
const retry = { sleep: () => Promise.resolve(), random: () => 0 };
// The idle tests allow a slow first connection; the connect tests a slow stream.
const fast = { connectTimeoutMs: 2_000, idleTimeoutMs: 150 };
const fastConnect = { connectTimeoutMs: 150, idleTimeoutMs: 2_000 };
const failure = (promise: Promise<unknown>) => rejectionWithout(KEY, promise);

function summaryRequest(signal = new AbortController().signal): SummaryRequest {
  return { taskId: 'history', promptId: 'pi-summary', prompt: 'Summarize.', entries: [], serialized: 'x', vars: {}, signal };
}
function agentRequest(signal = new AbortController().signal): ModelRequest {
  return { system: 'Read-only.', tools: READ_TOOLS, context: [contextItem('user', [{ type: 'text', text: 'hi' }], 'u1')], signal };
}
const openAISummarizer = (timeouts = fast) => createOpenAISummarizer({ baseUrl: `${server.url}/v1`, model: 'gpt-4o-mini', apiKey: KEY, label: 'Fake OpenAI', systemPrompt: SUMMARIZER_SYSTEM_PROMPT, retry, ...timeouts });
const anthropicSummarizer = (timeouts = fast) => createAnthropicSummarizer({ baseUrl: server.url, model: 'claude-haiku-4-5', apiKey: KEY, label: 'Fake Anthropic', systemPrompt: SUMMARIZER_SYSTEM_PROMPT, retry, ...timeouts });

describe('idle timeout: headers and one event, then nothing', () => {
  it('fails an OpenAI summary with IdleTimeoutError naming the idle timeout and its length', async () => {
    server.reply({ events: openAIStream('Half a sum').slice(0, 2), hang: true });
    const error = await failure(openAISummarizer().summarize(summaryRequest()));
    expect(error).toBeInstanceOf(IdleTimeoutError);
    // Still a summary timeout, so a compaction falls back the way it does for the total one.
    expect(error).toBeInstanceOf(SummaryTimeoutError);
    expect(error.message).toMatch(/^Idle timeout: Fake OpenAI sent nothing for 0\.2 s after [\d,]+ bytes of its reply/);
    expect((error as IdleTimeoutError).bytesReceived).toBeGreaterThan(0);
  });

  it('fails an Anthropic summary the same way', async () => {
    server.reply({ events: anthropicStream('Half').slice(0, 1), hang: true });
    const error = await failure(anthropicSummarizer().summarize(summaryRequest()));
    expect(error).toBeInstanceOf(IdleTimeoutError);
    expect(error.message).toContain('Idle timeout: Fake Anthropic sent nothing for 0.2 s');
  });

  it('fails a live-session reply (OpenAI-compatible and Anthropic) with the idle timeout, not a cancel', async () => {
    server.reply({ events: openAIStream('Hel').slice(0, 2), hang: true });
    const openai = createOpenAIAgentModel({ baseUrl: `${server.url}/v1`, model: 'qwen3:8b', apiKey: KEY, label: 'Local', retry, ...fast });
    const first = await failure(openai.complete(agentRequest()));
    expect(first.message).toMatch(/^Idle timeout: Local sent nothing for 0\.2 s/);

    server.reply({ events: anthropicStream('Hel').slice(0, 1), hang: true });
    const anthropic = createAnthropicAgentModel({ baseUrl: server.url, model: 'claude-sonnet-4-5', apiKey: KEY, label: 'Fake Anthropic', retry, ...fast });
    const second = await failure(anthropic.complete(agentRequest()));
    expect(second).toBeInstanceOf(IdleTimeoutError);
  });

  it('also covers a body that is not a stream (a JSON reply that stops halfway)', async () => {
    server.reply({ events: ['{"choices": [{"message": {"content": "par'], headers: { 'content-type': 'application/json' }, hang: true });
    const error = await failure(openAISummarizer().summarize(summaryRequest()));
    expect(error).toBeInstanceOf(IdleTimeoutError);
  });

  it('lets a stream that keeps sending finish, however long it takes in total', async () => {
    server.reply({ events: openAIStream(['a', 'b', 'c', 'd']), delayMs: 60 });
    const result = await openAISummarizer().summarize(summaryRequest());
    expect(result.text).toBe('abcd');
  });
});

describe('connect timeout: no response headers', () => {
  it('fails an OpenAI summary with ConnectTimeoutError naming the connect timeout and its length', async () => {
    server.reply({ silent: true });
    const error = await failure(openAISummarizer(fastConnect).summarize(summaryRequest()));
    expect(error).toBeInstanceOf(ConnectTimeoutError);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error.message).toMatch(/^Connect timeout: Fake OpenAI sent no response within 0\.2 s/);
    // Not retried: a server that does not answer is reported, not asked three more times.
    expect(server.requests).toHaveLength(1);
  });

  it('fails a live-session reply and an Anthropic summary the same way', async () => {
    server.reply({ silent: true }, { silent: true });
    const openai = createOpenAIAgentModel({ baseUrl: `${server.url}/v1`, model: 'qwen3:8b', label: 'Local', retry, ...fastConnect });
    expect((await failure(openai.complete(agentRequest()))).message).toMatch(/^Connect timeout: Local sent no response within 0\.2 s/);
    expect(await failure(anthropicSummarizer(fastConnect).summarize(summaryRequest()))).toBeInstanceOf(ConnectTimeoutError);
  });

  it('a cancel before the connect timeout is still a cancel, and the total timeout still names itself', async () => {
    server.reply({ silent: true }, { silent: true });
    const controller = new AbortController();
    const running = post({ provider: { id: 'openai', label: 'Fake', model: 'm', baseUrl: server.url }, url: `${server.url}/v1/chat/completions`, headers: {}, body: {}, signal: controller.signal, fetch, connectTimeoutMs: 5_000 });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(running)).name).toBe('CancelledError');

    const total = new AbortController();
    const timed = post({ provider: { id: 'openai', label: 'Fake', model: 'm', baseUrl: server.url }, url: `${server.url}/v1/chat/completions`, headers: {}, body: {}, signal: total.signal, fetch, connectTimeoutMs: 5_000 });
    setTimeout(() => total.abort(new SummaryTimeoutError(50)), 50);
    expect((await failure(timed)).message).toMatch(/^Total timeout: Fake did not finish the summary within 0\.1 s/);
  });
});

describe('the timeouts of Settings > Models', () => {
  it('default to 60 s connect, 60 s idle, 120 s total and 300 s per reply, and refuse what is out of range with why', () => {
    expect(DEFAULT_TIMEOUT_SECONDS).toEqual({ connect: 60, idle: 60, total: 120, reply: 300 });
    expect(requestTimeouts({ connect: 1.5, idle: 0, total: 30, reply: 90 })).toEqual({ connectTimeoutMs: 1_500, idleTimeoutMs: 0, replyTimeoutMs: 90_000 });
    expect(timeoutProblem('reply', 0)).toBe('The reply timeout must be a number of seconds from 1 to 3,600.');
    expect(timeoutProblem('connect', 0)).toBeUndefined();
    expect(timeoutProblem('total', 0)).toBe('The total timeout must be a number of seconds from 1 to 3,600.');
    expect(timeoutProblem('idle', Number.NaN)).toBe('The idle timeout must be a number of seconds from 0 to 3,600 (0 turns it off).');
    expect(timeoutProblem('connect', 3601)).toMatch(/^The connect timeout must be/);
  });

  it('travel with a RemoteConfig into every request it makes: summaries and live-session replies', async () => {
    server.reply({ silent: true }, { silent: true }, { events: openAIStream(['It', ' is']), delayMs: 400 });
    const config: RemoteConfig = { presetId: 'custom', api: 'openai', baseUrl: `${server.url}/v1`, model: 'qwen3:8b', ...requestTimeouts({ connect: 0.15, idle: 0.15, total: 120, reply: 300 }) };
    const summary = await failure(createRemoteSummarizerWith(config, 'Summarize.', { retry }).summarize(summaryRequest()));
    expect(summary.message).toMatch(/^Connect timeout: .+ sent no response within 0\.2 s/);
    const reply = await failure(createAgentModel(config, { retry }).complete(agentRequest()));
    expect(reply.message).toMatch(/^Connect timeout: .+ sent no response within 0\.2 s/);
    // The idle one too: frames 400 ms apart are more than 150 ms of silence.
    const idle = await failure(createAgentModel({ ...config, connectTimeoutMs: 2_000 }, { retry }).complete(agentRequest()));
    expect(idle).toBeInstanceOf(IdleTimeoutError);
  });
});
