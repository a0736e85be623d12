/**
 * The live host on the local WebLLM model, in Node: the session's worker reaches the engine
 * worker's model through a MessagePort (serveSharedModel over a WebLLMSummarizer whose engine is a
 * fake standing in for WebLLM's worker). A context-window overflow from WebLLM is answered by the
 * loop's compaction (summarized by the same model) and one retry; Stop ends the turn at once.
 */
import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/types.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { loadSharedModel, serveSharedModel } from '../../llm/webllm/webllm-shared.ts';
import { createWebLLMSummarizer, type WebLLMEngine } from '../../llm/webllm/webllm.ts';
import { liveFolderSnapshot } from './test-fixtures.ts';
import { LiveHost } from './live-host.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const config: LiveSessionConfig = { model: { kind: 'webllm', modelId: MODEL }, strategy: 'pi', options: { keepRecentTokens: '40' }, contextWindow: 200_000, counter: 'chars4', gitignore: true };

const piece = (content: string | undefined, finish: 'stop' | 'abort' | null = null): ChatCompletionChunk => ({
  id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});

/** Replies by request: a string streams word by word, an Error is thrown, 'hang' streams one word and waits for an interrupt and `drained`. */
class ScriptedEngine implements WebLLMEngine {
  requests: ChatCompletionRequestStreaming[] = [];
  interrupts = 0;
  private onInterrupt: () => void = () => undefined;
  drained: Promise<void> = Promise.resolve();
  constructor(private readonly replies: Array<string | Error | 'hang'>) {}
  chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.requests.push(request);
        const reply = this.replies.shift() ?? 'No more script.';
        if (reply instanceof Error) throw reply;
        return this.stream(reply);
      },
    },
  };
  private async *stream(reply: string): AsyncGenerator<ChatCompletionChunk> {
    if (reply === 'hang') {
      yield piece('Thinking ');
      await new Promise<void>((resolve) => { this.onInterrupt = resolve; });
      await this.drained;
      yield piece(undefined, 'abort');
      return;
    }
    for (const word of reply.split(/(?<= )/)) yield piece(word);
    yield piece(undefined, 'stop');
  }
  interruptGenerate(): void {
    this.interrupts++;
    this.onInterrupt();
  }
  async unload(): Promise<void> {}
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/** The page's part: the engine worker serves its model on a port, the page loads it and hands the port to the host. */
async function started(engine: ScriptedEngine) {
  let loads = 0;
  const summarizer = createWebLLMSummarizer({ modelId: MODEL, engineFactory: async () => { loads++; return engine; } });
  const channel = new MessageChannel();
  channels.push(channel);
  serveSharedModel(channel.port2, () => summarizer);
  await loadSharedModel(channel.port1, MODEL);
  const host = new LiveHost();
  const events: AgentEvent[] = [];
  const { model } = await host.start({ id: 's', folder: liveFolderSnapshot(), config, model: { kind: 'webllm', modelId: MODEL, port: channel.port1 }, journal: [] }, (event) => events.push(event));
  return { host, events, model, loads: () => loads };
}

describe('a live session on the local WebLLM model', () => {
  it("streams replies from the engine worker's model; WebLLM's overflow is compacted by the same model and retried once", async () => {
    const overflow = Object.assign(new Error('Prompt tokens exceed context window size: number of prompt tokens: 4500; context window size: 4096; consider shortening the prompt.'), { name: 'ContextWindowSizeExceededError' });
    const engine = new ScriptedEngine([
      'The folder holds a small parser project. '.repeat(6),
      'It parses numbers and lines. '.repeat(6),
      overflow,
      'Summary: we looked at the parser project.',
      'Turn prefix: the user asked about the parser.',
      'Here are the TODOs.',
    ]);
    const { host, events, model, loads } = await started(engine);
    expect(model).toBe(MODEL);
    expect((await host.send('s', 'What is in this folder?')).status).toBe('done');
    const streamed = events.flatMap((e) => (e.type === 'delta' && e.delta.type === 'text' ? [e.delta.text] : []));
    expect(streamed.length).toBeGreaterThan(1);
    expect((await host.send('s', 'And the parser?')).status).toBe('done');

    const third = await host.send('s', 'Find every TODO');
    expect(third.status).toBe('done');
    expect(events.filter((e) => e.type === 'compaction')).toHaveLength(1);
    expect(events.some((e) => e.type === 'note' && /overflow/i.test(e.text) && /4500 tokens/.test(e.text))).toBe(true);
    // pi's summaries (history, and the prefix of the turn it cut) were asked of the same model, then the retry.
    expect(engine.requests).toHaveLength(6);
    expect(engine.requests.slice(3, 5).map((r) => r.messages.at(-1)!.content)).toEqual([expect.stringMatching(/^<conversation>/), expect.stringMatching(/^<conversation>/)]);
    expect(engine.requests[5]!.messages.at(-1)!.content).toBe('Find every TODO');
    const last = events.flatMap((e) => (e.type === 'entry' && e.entry.role === 'assistant' ? [e.entry] : [])).at(-1);
    expect(JSON.stringify(last?.blocks)).toContain('Here are the TODOs.');
    expect(loads()).toBe(1);
  });

  it('Stop ends the turn at once while the engine finishes the token it is on; nothing of the reply is kept', async () => {
    const engine = new ScriptedEngine(['hang', 'Next answer.']);
    let drain!: () => void;
    engine.drained = new Promise<void>((resolve) => { drain = resolve; });
    const { host, events } = await started(engine);
    const turn = host.send('s', 'What is in this folder?');
    await expect.poll(() => events.some((e) => e.type === 'delta')).toBe(true);
    host.stop('s');
    expect((await turn).status).toBe('stopped');
    expect(events.filter((e) => e.type === 'entry' && e.entry.role === 'assistant')).toHaveLength(0);
    await expect.poll(() => engine.interrupts).toBeGreaterThan(0);
    drain();
    expect((await host.send('s', 'Try again')).status).toBe('done');
    const answer = events.flatMap((e) => (e.type === 'entry' && e.entry.role === 'assistant' ? [e.entry] : [])).at(-1);
    expect(JSON.stringify(answer?.blocks)).toContain('Next answer.');
  });

  it('a local model without a port to the engine says to start again', async () => {
    await expect(new LiveHost().start({ id: 's', folder: liveFolderSnapshot(), config, model: { kind: 'webllm', modelId: MODEL }, journal: [] }, () => undefined))
      .rejects.toThrow(`The local model ${MODEL} has no connection to this tab's model engine: start the session again.`);
  });
});
