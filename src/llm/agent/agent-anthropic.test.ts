import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../../core/compaction/types.ts';
import { ContextOverflowError, type ModelDelta, type ModelRequest } from '../../core/agent/types.ts';
import { createAnthropicAgentModel, DEFAULT_AGENT_MAX_TOKENS } from './agent-anthropic.ts';
import { AuthError, OverloadedError } from '../remote/errors.ts';
import { anthropicErrorBody, anthropicErrorEvent, anthropicStream, sse } from '../remote/test-server.ts';
import { contextItem, READ_TOOLS, rejectionWithout, useFakeServer } from '../remote/test-fixtures.ts';
import { CancelledError } from '../../core/cancel.ts';

const CANARY = 'sk-ant-api03-CANARY-agent-never-show-me-9e0f';
const server = useFakeServer();

const CONTEXT: ContextEntry[] = [
  contextItem('system', [{ type: 'text', text: 'Folder law: never edit.' }], 's1'),
  contextItem('user', [{ type: 'text', text: 'What is in this folder?' }], 'a1'),
  contextItem('assistant', [{ type: 'tool_call', callId: 'toolu_ls', name: 'ls', input: { path: '.' } }], 'a2'),
  contextItem('tool', [{ type: 'tool_result', callId: 'toolu_ls', content: [{ type: 'text', text: 'README.md' }], isError: false }], 'a3'),
];

function request(signal = new AbortController().signal, maxOutputTokens?: number): ModelRequest {
  return { system: 'You are a read-only agent.', tools: READ_TOOLS, context: CONTEXT, signal, ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}) };
}

function model(maxTokens?: number) {
  return createAnthropicAgentModel({ baseUrl: server.url, model: 'claude-sonnet-4-5', apiKey: CANARY, retry: { sleep: () => Promise.resolve(), random: () => 0 }, ...(maxTokens !== undefined ? { maxTokens } : {}) });
}

const frame = (type: string, data: Record<string, unknown>) => sse(JSON.stringify({ type, ...data }), type);

const failure = (promise: Promise<unknown>) => rejectionWithout(CANARY, promise);

describe('createAnthropicAgentModel', () => {
  it('streams thinking, text and a tool_use whose input arrives in pieces, with usage', async () => {
    server.reply({
      events: [
        frame('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 300, cache_creation_input_tokens: 20, cache_read_input_tokens: 1000, output_tokens: 1 } } }),
        frame('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
        frame('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'README first.' } }),
        frame('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
        frame('content_block_stop', { index: 0 }),
        frame('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
        frame('ping', {}),
        frame('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Reading ' } }),
        frame('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'it.' } }),
        frame('content_block_stop', { index: 1 }),
        frame('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_read', name: 'read', input: {} } }),
        frame('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
        frame('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"path": "REA' } }),
        frame('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: 'DME.md"}' } }),
        frame('content_block_stop', { index: 2 }),
        frame('content_block_start', { index: 3, content_block: { type: 'tool_use', id: 'toolu_ls2', name: 'ls', input: {} } }),
        frame('content_block_stop', { index: 3 }),
        frame('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 57 } }),
        frame('message_stop', {}),
      ],
    });
    const deltas: ModelDelta[] = [];
    const reply = await model().complete(request(), (d) => deltas.push(d));
    expect(reply).toEqual({
      text: 'Reading it.', thinking: 'README first.', stop: 'tool_use', model: 'claude-sonnet-4-5-20250929',
      toolCalls: [{ id: 'toolu_read', name: 'read', input: { path: 'README.md' } }, { id: 'toolu_ls2', name: 'ls', input: {} }],
      usage: { input: 1320, output: 57, cacheRead: 1000, cacheWrite: 20 },
    });
    expect(deltas).toEqual([
      { type: 'thinking', text: 'README first.' }, { type: 'text', text: 'Reading ' }, { type: 'text', text: 'it.' },
      { type: 'tool_call', id: 'toolu_read', name: 'read' }, { type: 'tool_call', id: 'toolu_ls2', name: 'ls' },
    ]);
    const [recorded] = server.requests;
    expect(recorded!.path).toBe('/v1/messages');
    expect(recorded!.headers).toMatchObject({ 'x-api-key': CANARY, 'anthropic-version': '2023-06-01' });
    expect(recorded!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: DEFAULT_AGENT_MAX_TOKENS,
      system: 'You are a read-only agent.\n\nFolder law: never edit.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in this folder?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_ls', name: 'ls', input: { path: '.' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ls', content: 'README.md' }] },
      ],
      tools: [{ name: 'read', description: 'Read a file.', input_schema: READ_TOOLS[0]!.parameters }],
      stream: true,
    });
  });

  it('caps max_tokens by the config, and reports max_tokens as a reply cut at its length', async () => {
    server.reply({ events: anthropicStream('cut', { stopReason: 'max_tokens' }) });
    const reply = await model(1024).complete(request(undefined, 4096));
    expect([reply.stop, (server.requests[0]!.body as { max_tokens: number }).max_tokens]).toEqual(['length', 1024]);
  });

  it('"prompt is too long" is the agent ContextOverflowError, never retried', async () => {
    server.reply({ status: 400, json: anthropicErrorBody('invalid_request_error', 'prompt is too long: 213462 tokens > 200000 maximum') });
    const error = await failure(model().complete(request()));
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error.message).toMatch(/claude-sonnet-4-5.*Server said: "prompt is too long: 213462 tokens > 200000 maximum"/);
    expect(server.requests).toHaveLength(1);
  });

  it('aborting mid-stream rejects with CancelledError', async () => {
    server.reply({ events: anthropicStream('first').slice(0, 4), hang: true });
    const controller = new AbortController();
    const error = await failure(model().complete(request(controller.signal), () => controller.abort()));
    expect(error).toBeInstanceOf(CancelledError);
  });

  it('a 401 is an AuthError without the key; an overloaded event after text is final', async () => {
    server.reply({ status: 401, json: anthropicErrorBody('authentication_error', `invalid x-api-key ${CANARY}`) });
    expect(await failure(model().complete(request()))).toBeInstanceOf(AuthError);
    server.reset();
    server.reply({ events: [...anthropicStream('half').slice(0, 4), anthropicErrorEvent('overloaded_error', 'Overloaded')] }, { events: anthropicStream('never') });
    expect(await failure(model().complete(request()))).toBeInstanceOf(OverloadedError);
    expect(server.requests).toHaveLength(1);
  });
});
