// The WebLLM protocol end to end over a MessageChannel: the client (page / engine worker side) and
// the host (WebLLM's worker side) with a fake engine standing in for the library's MLCEngine.
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, InitProgressReport } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { connectWebLLM } from './webllm-client.ts';
import { serveWebLLM, type HostedEngine, type WebLLMLibrary } from './webllm-host.ts';
import { createWebLLMSummarizer, mapWebLLMError } from './webllm.ts';

const chunk = (content: string): ChatCompletionChunk => ({
  id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

const request: ChatCompletionRequestStreaming = { stream: true, messages: [{ role: 'user', content: 'hi' }] };

interface FakeOptions {
  pieces?: string[];
  failChat?: unknown;
  failLoad?: unknown;
}

function fakeLibrary(options: FakeOptions = {}) {
  const log: string[] = [];
  const engine: HostedEngine = {
    chat: {
      completions: {
        async create(req) {
          log.push(`create:${req.messages.length}`);
          if (options.failChat !== undefined) throw options.failChat;
          return (async function* () {
            for (const piece of options.pieces ?? ['a', 'b', 'c']) yield chunk(piece);
          })();
        },
      },
    },
    interruptGenerate: () => log.push('interrupt'),
    unload: async () => { log.push('unload'); },
  };
  const library: WebLLMLibrary = {
    async createEngine(modelId, { appConfig, onProgress }) {
      log.push(`load:${modelId}:${appConfig ? appConfig.model_list.length : 'prebuilt'}`);
      onProgress({ progress: 0.5, text: 'half', timeElapsed: 1 } as InitProgressReport);
      onProgress({ progress: 1, text: 'done', timeElapsed: 2 } as InitProgressReport);
      if (options.failLoad !== undefined) throw options.failLoad;
      return engine;
    },
    hasModelInCache: async (modelId) => modelId === 'Cached',
    deleteModelAllInfoInCache: async (modelId) => { log.push(`delete:${modelId}`); },
  };
  return { library, log };
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connect(options: FakeOptions = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const { library, log } = fakeLibrary(options);
  serveWebLLM(channel.port2, library);
  return { client: connectWebLLM(channel.port1), log };
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<string> {
  let text = '';
  for await (const piece of stream) text += piece.choices[0]?.delta.content ?? '';
  return text;
}

describe('WebLLM protocol', () => {
  it('loads with progress, streams the chunks in order, unloads', async () => {
    const { client, log } = connect({ pieces: ['Sum', 'mary', '.'] });
    const reports: number[] = [];
    await client.load('M-1B', { appConfig: { model_list: [] }, onProgress: (report) => reports.push(report.progress) });
    expect(reports).toEqual([0.5, 1]);
    expect(await collect(await client.createChat(request))).toBe('Summary.');
    await client.unload();
    expect(log).toEqual(['load:M-1B:0', 'create:1', 'unload']);
  });

  it('refuses a chat before a load with WebLLM\'s error name, which maps to "load it again"', async () => {
    const { client } = connect();
    const error = await collect(await client.createChat(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('ModelNotLoadedError');
    expect(mapWebLLMError(error, 'M-1B')).toMatchObject({ kind: 'not-loaded' });
  });

  it('carries WebLLM\'s failures (bare strings included) so they map to actionable errors', async () => {
    const loadFailure = connect({ failLoad: 'DeviceLostError: The WebGPU device was lost' });
    const error = await loadFailure.client.load('M-1B', {}).catch((e: unknown) => e);
    expect(mapWebLLMError(error, 'M-1B')).toMatchObject({ kind: 'gpu-memory' });

    const overflow = Object.assign(new Error('Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096'), { name: 'ContextWindowSizeExceededError' });
    const chatFailure = connect({ failChat: overflow });
    await chatFailure.client.load('M-1B', {});
    const chatError = await collect(await chatFailure.client.createChat(request)).catch((e: unknown) => e);
    expect(mapWebLLMError(chatError, 'M-1B')).toMatchObject({ name: 'ContextOverflowError', promptTokens: 5000, contextWindow: 4096 });
  });

  it('forwards interrupts and answers cache queries', async () => {
    const { client, log } = connect();
    await client.load('M-1B', {});
    client.interrupt();
    expect(await client.hasModelInCache('Cached')).toBe(true);
    expect(await client.hasModelInCache('Other')).toBe(false);
    await client.deleteModelAllInfoInCache('Cached');
    expect(log).toEqual(['load:M-1B:prebuilt', 'interrupt', 'delete:Cached']);
  });

  it('drives the summarizer: a summary streamed from the worker side', async () => {
    const { client } = connect({ pieces: ['Files: a.ts', ' b.ts'] });
    const tokens: string[] = [];
    const summarizer = createWebLLMSummarizer({
      modelId: 'M-1B',
      engineFactory: async ({ modelId, onProgress }) => {
        await client.load(modelId, { onProgress });
        return { chat: { completions: { create: (r) => client.createChat(r) } }, interruptGenerate: () => client.interrupt(), unload: () => client.unload() };
      },
      onToken: (text) => tokens.push(text),
    });
    const response = await summarizer.summarize({ taskId: 't', promptId: 'summary', prompt: 'Summarize', entries: [], serialized: '', vars: {}, signal: new AbortController().signal });
    expect(response.text).toBe('Files: a.ts b.ts');
    expect(tokens.at(-1)).toBe('Files: a.ts b.ts');
    await summarizer.unload();
    expect(summarizer.state).toBe('idle');
  });
});
