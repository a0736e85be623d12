/**
 * A live session's reply has a total timeout besides connect and idle: a server that keeps
 * trickling bytes, or keeps answering 429, ends the reply with ReplyTimeoutError naming the reply
 * timeout, after the deltas that arrived were passed on; Stop stays a stop.
 */
import { describe, expect, it } from 'vitest';
import { type ModelDelta, type ModelRequest } from '../../core/agent/types.ts';
import { createAnthropicAgentModel } from './agent-anthropic.ts';
import { createOpenAIAgentModel } from './agent-openai.ts';
import { ReplyTimeoutError } from '../remote/errors.ts';
import { anthropicStream, openAIStream } from '../remote/test-server.ts';
import { contextItem, READ_TOOLS, rejectionWithout, useFakeServer } from '../remote/test-fixtures.ts';
import { CancelledError } from '../../core/cancel.ts';

const KEY = 'sk-canary-reply-timeout-41d2';
const server = useFakeServer();
const failure = (promise: Promise<unknown>) => rejectionWithout(KEY, promise);
// Frames 40 ms apart never trip a 2 s idle timeout; 60 words of them outlast a 0.3 s reply timeout.
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i} `);
const slow = { connectTimeoutMs: 2_000, idleTimeoutMs: 2_000, replyTimeoutMs: 300 };

function agentRequest(signal = new AbortController().signal): ModelRequest {
  return { system: 'Read-only.', tools: READ_TOOLS, context: [contextItem('user', [{ type: 'text', text: 'hi' }], 'u1')], signal };
}

describe('the reply timeout of a live session', () => {
  it('ends an OpenAI-compatible reply that keeps streaming past it, after passing on what arrived', async () => {
    server.reply({ events: openAIStream(WORDS), delayMs: 40 });
    const model = createOpenAIAgentModel({ baseUrl: `${server.url}/v1`, model: 'qwen3:8b', apiKey: KEY, label: 'Local', ...slow });
    const deltas: ModelDelta[] = [];
    const error = await failure(model.complete(agentRequest(), (delta) => deltas.push(delta)));
    expect(error).toBeInstanceOf(ReplyTimeoutError);
    expect(error.message).toMatch(/^Reply timeout: Local did not finish its reply within 0\.3 s \(Settings > Models, "Reply"\): the turn was ended/);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.length).toBeLessThan(WORDS.length);
  });

  it('ends an Anthropic reply the same way', async () => {
    server.reply({ events: anthropicStream(WORDS), delayMs: 40 });
    const model = createAnthropicAgentModel({ baseUrl: server.url, model: 'claude-haiku-4-5', apiKey: KEY, label: 'Fake Anthropic', ...slow });
    const error = await failure(model.complete(agentRequest()));
    expect(error).toBeInstanceOf(ReplyTimeoutError);
    expect(error.message).toContain('Reply timeout: Fake Anthropic did not finish its reply within 0.3 s');
  });

  it('counts the waits between retries: a server that keeps answering 429 ends at the reply timeout', async () => {
    server.reply({ status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '30' } });
    const waits: number[] = [];
    // The wait itself never ends: only the reply timeout (or Stop) can end it.
    const retry = { sleep: () => new Promise<void>(() => undefined), random: () => 0, onRetry: ({ delayMs }: { delayMs: number }) => waits.push(delayMs) };
    const model = createOpenAIAgentModel({ baseUrl: `${server.url}/v1`, model: 'qwen3:8b', apiKey: KEY, label: 'Local', ...slow, replyTimeoutMs: 200, retry });
    const error = await failure(model.complete(agentRequest()));
    expect(error).toBeInstanceOf(ReplyTimeoutError);
    expect(waits).toEqual([30_000]);
  });

  it('leaves a reply that finishes in time alone, and Stop is still a stop', async () => {
    server.reply({ events: openAIStream(['Done.']) });
    const model = createOpenAIAgentModel({ baseUrl: `${server.url}/v1`, model: 'qwen3:8b', apiKey: KEY, label: 'Local', ...slow });
    expect((await model.complete(agentRequest())).text).toBe('Done.');

    server.reply({ events: openAIStream(WORDS), delayMs: 40 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    expect(await failure(model.complete(agentRequest(stop.signal)))).toBeInstanceOf(CancelledError);
  });
});
