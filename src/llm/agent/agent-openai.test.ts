import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../../core/compaction/types.ts';
import { ContextOverflowError, type ModelDelta, type ModelRequest } from '../../core/agent/types.ts';
import { createOpenAIAgentModel, type OpenAIAgentConfig } from './agent-openai.ts';
import { createAgentModel } from './agent-model.ts';
import { AuthError, OverloadedError } from '../remote/errors.ts';
import { RemoteConfigError } from '../remote/remote-config.ts';
import { openAIErrorBody, openAIStream, sse } from '../remote/test-server.ts';
import { contextItem, READ_TOOLS, rejectionWithout, useFakeServer } from '../remote/test-fixtures.ts';
import { CancelledError } from '../../core/cancel.ts';

const CANARY = 'sk-proj-CANARY-agent-never-show-me-51c2';
const server = useFakeServer();

const CONTEXT: ContextEntry[] = [
  contextItem('user', [{ type: 'text', text: 'What is in this folder?' }], 'a1'),
  contextItem('assistant', [{ type: 'tool_call', callId: 'call_ls', name: 'ls', input: { path: '.' } }], 'a2'),
  contextItem('tool', [{ type: 'tool_result', callId: 'call_ls', content: [{ type: 'text', text: 'README.md\nsrc/' }], isError: false }], 'a3'),
];

function request(signal = new AbortController().signal): ModelRequest {
  return { system: 'You are a read-only agent.', tools: READ_TOOLS, context: CONTEXT, signal };
}

function model(extra: Partial<OpenAIAgentConfig> = {}) {
  return createOpenAIAgentModel({ baseUrl: `${server.url}/v1`, model: 'gpt-4o-mini', apiKey: CANARY, retry: { sleep: () => Promise.resolve(), random: () => 0 }, ...extra });
}

const BASE = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini-2024-07-18' };
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse(JSON.stringify({ ...BASE, choices: [{ index: 0, delta, finish_reason: finish }] }));
const usageChunk = (prompt: number, completion: number) => sse(JSON.stringify({ ...BASE, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: 64 } } }));

const failure = (promise: Promise<unknown>) => rejectionWithout(CANARY, promise);

describe('createOpenAIAgentModel', () => {
  it('streams text with usage, and sends the context as messages and the tools as functions', async () => {
    server.reply({ events: openAIStream(['It holds ', 'a README.'], { usage: { prompt_tokens: 812, completion_tokens: 6 } }) });
    const deltas: ModelDelta[] = [];
    const reply = await model().complete(request(), (d) => deltas.push(d));
    expect(reply).toEqual({ text: 'It holds a README.', toolCalls: [], stop: 'end', model: 'gpt-4o-mini-2024-07-18', usage: { input: 812, output: 6 } });
    expect(deltas).toEqual([{ type: 'text', text: 'It holds ' }, { type: 'text', text: 'a README.' }]);
    const [recorded] = server.requests;
    expect(recorded!.path).toBe('/v1/chat/completions');
    expect(recorded!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(recorded!.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a read-only agent.' },
        { role: 'user', content: 'What is in this folder?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_ls', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
        { role: 'tool', tool_call_id: 'call_ls', content: 'README.md\nsrc/' },
      ],
      tools: [{ type: 'function', function: READ_TOOLS[0] }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('joins the context\'s leading system entries (CODE_LAW.md) to the one system message at the start', async () => {
    server.reply({ events: openAIStream('ok') });
    const law = contextItem('system', [{ type: 'text', text: '<code-law>\nNever edit.\n</code-law>' }], 'law');
    await model().complete({ ...request(), context: [law, ...CONTEXT] });
    const messages = (server.requests[0]!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[0]!.content).toBe('You are a read-only agent.\n\n<code-law>\nNever edit.\n</code-law>');
  });

  it('accumulates tool calls streamed in pieces by index, announcing each once', async () => {
    server.reply({
      events: [
        chunk({ role: 'assistant', content: null }),
        chunk({ content: 'Reading both.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'grep', arguments: '{"pattern":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"README.md"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '"TODO"}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(900, 41),
        sse('[DONE]'),
      ],
    });
    const deltas: ModelDelta[] = [];
    const reply = await model().complete(request(), (d) => deltas.push(d));
    expect(reply.toolCalls).toEqual([
      { id: 'call_a', name: 'read', input: { path: 'README.md' } },
      { id: 'call_b', name: 'grep', input: { pattern: 'TODO' } },
    ]);
    expect([reply.stop, reply.text, reply.usage]).toEqual(['tool_use', 'Reading both.', { input: 900, output: 41, cacheRead: 64 }]);
    expect(deltas.filter((d) => d.type === 'tool_call')).toEqual([{ type: 'tool_call', id: 'call_a', name: 'read' }, { type: 'tool_call', id: 'call_b', name: 'grep' }]);
  });

  it('reads servers that send calls without an index or id, reasoning, and arguments that are not JSON', async () => {
    server.reply({
      events: [
        chunk({ reasoning_content: 'The user wants files.' }),
        chunk({ tool_calls: [{ id: 'c1', function: { name: 'ls', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ function: { name: 'read', arguments: 'not json' } }] }),
        chunk({}, 'tool_calls'),
        sse('[DONE]'),
      ],
    });
    const reply = await model().complete(request());
    expect(reply.thinking).toBe('The user wants files.');
    expect(reply.toolCalls.map((c) => [c.name, c.input])).toEqual([['ls', {}], ['read', 'not json']]);
    expect(reply.toolCalls[0]!.id).toBe('c1');
    expect(reply.toolCalls[1]!.id).toMatch(/^call_\d{16}$/);
    expect(reply.usage).toBeUndefined();
  });

  it('takes a whole chat.completion when the server does not stream', async () => {
    server.reply({ json: { ...BASE, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'x1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 5, completion_tokens: 2 } } });
    const reply = await model().complete(request());
    expect(reply).toMatchObject({ toolCalls: [{ id: 'x1', name: 'read', input: { path: 'a' } }], stop: 'tool_use', usage: { input: 5, output: 2 } });
  });

  it('a context overflow (OpenAI, llama.cpp, z.ai wordings) is the agent ContextOverflowError, never retried', async () => {
    server.reply(
      { status: 400, json: openAIErrorBody("This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.", 'invalid_request_error', 'context_length_exceeded') },
      { status: 400, json: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } } },
      { events: [chunk({ content: 'partial' }), chunk({}, 'model_context_window_exceeded'), sse('[DONE]')] },
    );
    for (let i = 0; i < 3; i++) {
      const error = await failure(model().complete(request()));
      expect(error).toBeInstanceOf(ContextOverflowError);
      expect(error.message).toMatch(/does not fit the context window of "gpt-4o-mini"/);
    }
    expect(server.requests).toHaveLength(3);
  });

  it('aborting mid-stream rejects at once with CancelledError', async () => {
    // The server sends one piece and then holds the stream open: only the abort can end the call.
    server.reply({ events: [chunk({ content: 'one ' })], hang: true });
    const controller = new AbortController();
    const texts: string[] = [];
    const error = await failure(model().complete(request(controller.signal), (d) => {
      if (d.type === 'text') texts.push(d.text);
      controller.abort();
    }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(texts).toEqual(['one ']);
  });

  it('a 401 is an AuthError without the key; a 503 before streaming is retried, an error after text is not', async () => {
    server.reply({ status: 401, json: openAIErrorBody(`Incorrect API key provided: ${CANARY}.`, 'invalid_request_error', 'invalid_api_key') });
    const auth = await failure(model().complete(request()));
    expect(auth).toBeInstanceOf(AuthError);
    expect(auth.message).toMatch(/Check the API key in Settings > Models/);

    server.reset();
    server.reply({ status: 503, json: openAIErrorBody('busy', 'server_error') }, { events: openAIStream('ok') });
    expect((await model().complete(request())).text).toBe('ok');
    expect(server.requests).toHaveLength(2);

    server.reset();
    server.reply({ events: [chunk({ content: 'half' }), sse(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: 503 } }))] }, { events: openAIStream('never') });
    expect(await failure(model().complete(request()))).toBeInstanceOf(OverloadedError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('createAgentModel', () => {
  it('makes the model Settings describes, and names what is missing', async () => {
    server.reply({ events: openAIStream('hi') });
    const agent = createAgentModel({ presetId: 'ollama', api: 'openai', baseUrl: `${server.url}/v1/`, model: ' llama3.1 ' }, { retry: { maxRetries: 0 } });
    expect([agent.kind, agent.model]).toEqual(['openai', 'llama3.1']);
    expect((await agent.complete(request())).text).toBe('hi');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(createAgentModel({ presetId: 'anthropic', api: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-haiku-4-5', apiKey: 'k' }).kind).toBe('anthropic');
    expect(() => createAgentModel({ presetId: 'anthropic', api: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-haiku-4-5' })).toThrow(RemoteConfigError);
    expect(() => createAgentModel({ presetId: 'custom', api: 'openai', baseUrl: 'localhost:11434', model: 'x' })).toThrow(/must start with http/);
  });
});
