// The WebLLM agent model against a fake engine that streams like WebWorkerMLCEngine: the tool
// protocol in the system message, tool traffic as text, calls read from the reply, abort, overflow.
import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import type { ContextEntry } from '../../core/compaction/types.ts';
import type { Block, Role } from '../../core/journal/entry.ts';
import { ContextOverflowError, type ModelDelta, type ModelRequest } from '../../core/agent/types.ts';
import { createWebLLMAgentModel, splitReply } from './agent-webllm.ts';
import type { WebLLMEngine } from '../webllm/webllm.ts';
import { CancelledError } from '../../core/cancel.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';

function chunk(content: string | undefined, finish: 'stop' | 'abort' | 'length' | null = null): ChatCompletionChunk {
  return { id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === undefined ? {} : { content, role: 'assistant' }, finish_reason: finish }] };
}

class FakeEngine implements WebLLMEngine {
  requests: ChatCompletionRequestStreaming[] = [];
  interrupts = 0;
  private interrupted = false;
  constructor(public deltas: string[], public error?: unknown, public onPiece: (i: number) => void = () => undefined) {}
  chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.requests.push(request);
        if (this.error !== undefined) throw this.error;
        return this.stream();
      },
    },
  };
  private async *stream(): AsyncGenerator<ChatCompletionChunk> {
    this.interrupted = false;
    for (const [i, delta] of this.deltas.entries()) {
      if (this.interrupted) break;
      yield chunk(delta);
      this.onPiece(i);
    }
    yield chunk(undefined, this.interrupted ? 'abort' : 'stop');
    yield {
      ...chunk(undefined), choices: [],
      usage: { prompt_tokens: 300, completion_tokens: 12, total_tokens: 312, extra: { e2e_latency_s: 1, prefill_tokens_per_s: 300, decode_tokens_per_s: 12, time_to_first_token_s: 0.1, time_per_output_token_s: 0.08 } },
    };
  }
  interruptGenerate(): void {
    this.interrupts++;
    this.interrupted = true;
  }
  async unload(): Promise<void> {}
}

function item(role: Role, blocks: Block[], id: string): ContextEntry {
  return { role, origin: 'journal', entry: { id, index: 0, parentId: null, role, kind: 'message', blocks, sourceType: 'live', line: 1 } };
}

const CONTEXT: ContextEntry[] = [
  item('user', [{ type: 'text', text: 'What is in here?' }], 'a1'),
  item('assistant', [{ type: 'text', text: 'Listing.' }, { type: 'tool_call', callId: 'c1', name: 'ls', input: { path: '.' } }], 'a2'),
  item('tool', [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: 'README.md' }], isError: false }], 'a3'),
];
const TOOLS = [{ name: 'read', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const request = (signal = new AbortController().signal): ModelRequest => ({ system: 'Read-only agent.', tools: TOOLS, context: CONTEXT, signal });

describe('createWebLLMAgentModel', () => {
  it('describes the tools in the system message, sends tool traffic as text, and reads calls from the reply', async () => {
    const engine = new FakeEngine(['<think>Need the README.</think>', 'Reading it.\n<tool', '_call>\n{"name": "read", "arguments": {"path": "README.md"}}\n</tool_call>']);
    const deltas: ModelDelta[] = [];
    const reply = await createWebLLMAgentModel({ modelId: MODEL, engine }).complete(request(), (d) => deltas.push(d));
    expect(reply).toMatchObject({ text: 'Reading it.', thinking: 'Need the README.', stop: 'tool_use', model: MODEL, usage: { input: 300, output: 12 } });
    expect(reply.toolCalls.map((c) => [c.name, c.input])).toEqual([['read', { path: 'README.md' }]]);
    expect(deltas.filter((d) => d.type === 'text').map((d) => (d as { text: string }).text).join('')).toBe('Reading it.\n');
    expect(deltas.at(-1)).toMatchObject({ type: 'tool_call', name: 'read' });
    const sent = engine.requests[0]!.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent[0]!.content).toMatch(/^Read-only agent\.\n\n# Tools[\s\S]*"name":"read"[\s\S]*<tool_call>/);
    expect(sent[2]!.content).toBe('Listing.\n<tool_call>\n{"name": "ls", "arguments": {"path":"."}}\n</tool_call>');
    expect(sent[3]!.content).toBe('<tool_response>\nREADME.md\n</tool_response>');
    expect(engine.requests[0]!.tools).toBeUndefined();
  });

  it('a plain answer has no calls; a call that is not JSON stays in the text', () => {
    expect(splitReply('All done.', true)).toEqual({ thinking: '', shown: 'All done.', calls: [] });
    expect(splitReply('Trying <tool_call>{oops}</tool_call>', true).shown).toBe('Trying <tool_call>{oops}</tool_call>');
    expect(splitReply('Half <tool_c', false).shown).toBe('Half ');
    expect(splitReply('<tool_call>{"name":"ls","parameters":"{\\"path\\":\\"src\\"}"}', true).calls).toEqual([{ name: 'ls', input: { path: 'src' } }]);
  });

  it('aborting interrupts the generation and rejects with CancelledError', async () => {
    const controller = new AbortController();
    const engine = new FakeEngine(['one ', 'two ', 'three'], undefined, (i) => {
      if (i === 0) controller.abort();
    });
    await expect(createWebLLMAgentModel({ modelId: MODEL, engine }).complete(request(controller.signal))).rejects.toBeInstanceOf(CancelledError);
    expect(engine.interrupts).toBeGreaterThan(0);
  });

  it('pieces already on their way when Stop interrupted bring no more interrupts', async () => {
    const controller = new AbortController();
    let read = -1;
    const engine = new FakeEngine(['Once ', 'upon ', 'a ', 'time'], undefined, (i) => {
      read = i;
      if (i === 0) controller.abort();
    });
    // The interrupt reaches the engine after the last piece was sent: every piece still arrives.
    engine.interruptGenerate = () => { engine.interrupts++; };
    await expect(createWebLLMAgentModel({ modelId: MODEL, engine }).complete(request(controller.signal))).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(() => read).toBe(3);
    expect(engine.interrupts).toBe(1);
  });

  it('Stop before the first piece: the interrupt is repeated once on the first piece (WebLLM may have cleared it), and only once', async () => {
    const controller = new AbortController();
    let read = -1;
    const engine = new FakeEngine(['Once ', 'upon ', 'a ', 'time'], undefined, (i) => { read = i; });
    engine.interruptGenerate = () => { engine.interrupts++; };
    const create = engine.chat.completions.create;
    engine.chat.completions.create = (body) => {
      controller.abort();
      return create(body);
    };
    await expect(createWebLLMAgentModel({ modelId: MODEL, engine }).complete(request(controller.signal))).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(() => read).toBe(3);
    expect(engine.interrupts).toBe(2);
  });

  it("WebLLM's context window error is the agent ContextOverflowError", async () => {
    const engine = new FakeEngine([], 'ContextWindowSizeExceededError: Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096');
    const error = await createWebLLMAgentModel({ modelId: MODEL, engine: () => Promise.resolve(engine) }).complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect((error as Error).message).toMatch(/5000 tokens.*4096/);
  });
});
