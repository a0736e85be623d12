// One WebLLM model shared over a MessageChannel, as a live session's worker reaches the engine
// worker's model: the engine end is a real WebLLMSummarizer over a fake engine (standing in for
// WebLLM's worker), the live end the agent model over sharedModelEngine. Gates, not timers.
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, InitProgressReport } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextEntry } from '../../core/compaction/types.ts';
import { ContextOverflowError, type ModelDelta, type ModelRequest } from '../../core/agent/types.ts';
import { createWebLLMAgentModel } from '../agent/agent-webllm.ts';
import { connectWebLLM } from './webllm-client.ts';
import { loadSharedModel, serveSharedModel, sharedModelEngine } from './webllm-shared.ts';
import type { WebLLMPort } from './webllm-protocol.ts';
import { createWebLLMSummarizer, mapWebLLMError, type WebLLMEngine } from './webllm.ts';
import { CancelledError } from '../../core/cancel.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';

function chunk(content: string | undefined, finish: 'stop' | 'abort' | null = null): ChatCompletionChunk {
  return { id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
}

/**
 * WebLLM's engine as the engine worker holds it. Each request streams its script; a `gate` piece
 * waits until the gate opens (or the generation is interrupted and `release` is opened).
 */
class FakeEngine implements WebLLMEngine {
  requests: ChatCompletionRequestStreaming[] = [];
  interrupts = 0;
  /** Opened by interruptGenerate; what a waiting piece checks. */
  private interrupted = gate();
  /** An interrupted stream ends only when this settles (WebLLM finishes the token it is on). */
  afterInterrupt: Promise<void> = Promise.resolve();
  constructor(public scripts: Array<Array<string | Promise<void>> | Error>) {}
  chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.requests.push(request);
        const script = this.scripts.shift() ?? ['(no script)'];
        if (script instanceof Error) throw script;
        this.interrupted = gate();
        return this.stream(script);
      },
    },
  };
  private async *stream(script: Array<string | Promise<void>>): AsyncGenerator<ChatCompletionChunk> {
    let stopped = false;
    void this.interrupted.opened.then(() => { stopped = true; });
    for (const piece of script) {
      if (typeof piece !== 'string') {
        await Promise.race([piece, this.interrupted.opened]);
        if (stopped) break;
        continue;
      }
      if (stopped) break;
      yield chunk(piece);
    }
    if (stopped) await this.afterInterrupt;
    yield chunk(undefined, stopped ? 'abort' : 'stop');
    yield { ...chunk(undefined), choices: [], usage: { prompt_tokens: 120, completion_tokens: 7, total_tokens: 127, extra: { e2e_latency_s: 1, prefill_tokens_per_s: 100, decode_tokens_per_s: 20, time_to_first_token_s: 0.1, time_per_output_token_s: 0.05 } } };
  }
  interruptGenerate(): void {
    this.interrupts++;
    this.interrupted.open();
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

/** The engine worker's summarizer serving a port, and the live end of it. */
function shared(engine: FakeEngine, options: { failLoad?: unknown } = {}) {
  let loads = 0;
  const progress: { current: (report: InitProgressReport) => void } = { current: () => undefined };
  const summarizer = createWebLLMSummarizer({
    modelId: MODEL,
    engineFactory: async ({ onProgress }) => {
      loads++;
      onProgress({ progress: 0.5, text: 'Loading model from cache[12/24]', timeElapsed: 1 });
      if (options.failLoad !== undefined) throw options.failLoad;
      return engine;
    },
    onProgress: (report) => progress.current(report),
  });
  const channel = new MessageChannel();
  channels.push(channel);
  // The engine worker's end, noting each request's kind as it arrives.
  const kinds: string[] = [];
  const end = channel.port2;
  const spy: WebLLMPort = {
    postMessage: (message) => end.postMessage(message),
    addEventListener: (type, listener) => end.addEventListener(type, (event) => {
      kinds.push((event.data as { kind: string }).kind);
      listener(event);
    }),
    removeEventListener: () => undefined,
    start: () => end.start(),
  };
  const release = serveSharedModel(spy, (_modelId, _appConfig, onProgress) => {
    progress.current = onProgress;
    return summarizer;
  });
  return { summarizer, port: channel.port1, loads: () => loads, kinds, release };
}

const CONTEXT: ContextEntry[] = [{ role: 'user', origin: 'journal', entry: { id: 'u1', index: 0, parentId: null, role: 'user', kind: 'message', blocks: [{ type: 'text', text: 'What is in here?' }], sourceType: 'live', line: 1 } }];
const TOOLS = [{ name: 'ls', description: 'List a folder.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const request = (signal = new AbortController().signal): ModelRequest => ({ system: 'Read-only agent.', tools: TOOLS, context: CONTEXT, signal });
const summaryRequest = (signal = new AbortController().signal) => ({ taskId: 't', promptId: 'summary', prompt: 'Summarize', entries: [], serialized: '', vars: {}, signal });

describe('a WebLLM model shared over a port', () => {
  it('loads with progress, streams the reply chunk by chunk to the live end, and summaries use the same loaded model', async () => {
    const engine = new FakeEngine([
      ['Listing', ' the folder.\n<tool_call>\n{"name": "ls", "arguments": {"path": "."}}\n</tool_call>'],
      ['Summary of the session.'],
    ]);
    const { summarizer, port, loads } = shared(engine);
    const reports: number[] = [];
    await loadSharedModel(port, MODEL, { onProgress: (report) => reports.push(report.progress) });
    expect(reports).toEqual([0.5]);
    expect(summarizer.state).toBe('ready');

    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const deltas: ModelDelta[] = [];
    const reply = await model.complete(request(), (delta) => deltas.push(delta));
    expect(deltas.filter((d) => d.type === 'text').map((d) => (d as { text: string }).text)).toEqual(['Listing', ' the folder.\n']);
    expect(reply).toMatchObject({ text: 'Listing the folder.', stop: 'tool_use', usage: { input: 120, output: 7 } });
    expect(reply.toolCalls.map((call) => [call.name, call.input])).toEqual([['ls', { path: '.' }]]);
    expect(engine.requests[0]!.messages[0]!.content).toMatch(/^Read-only agent\.\n\n# Tools/);

    expect((await summarizer.summarize(summaryRequest())).text).toBe('Summary of the session.');
    // One copy on the GPU: the port's load, its chat and the summary all used the engine loaded once.
    expect(loads()).toBe(1);
  });

  it('Stop mid-stream rejects at once, interrupts the generation, and the next request works', async () => {
    const hold = gate();
    const release = gate();
    const engine = new FakeEngine([['one ', hold.opened, 'two ', 'three'], ['Fine.']]);
    engine.afterInterrupt = release.opened;
    const { port } = shared(engine);
    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const controller = new AbortController();
    const first = gate();
    const pending = model.complete(request(controller.signal), (delta) => {
      if (delta.type === 'text') first.open();
    });
    await first.opened;
    controller.abort();
    // Rejected before the engine's stream has ended (the stream is still drained in the background).
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(() => engine.interrupts).toBeGreaterThan(0);
    release.open();
    const next = await model.complete(request());
    expect(next.text).toBe('Fine.');
    expect(engine.requests).toHaveLength(2);
  });

  it("a request sent while a stopped reply is still being drained is not stopped by it, and the pieces in flight bring no more interrupts", async () => {
    const release = gate();
    const second = gate();
    // The first generation's pieces after 'one ' were already on their way when Stop's interrupt
    // went out (a busy machine): they still arrive, and each used to send one more interrupt.
    const engine = new FakeEngine([['one ', release.opened, 'two ', 'three ', 'four'], ['The whole ', second.opened, 'second answer.']]);
    let interrupts = 0;
    engine.interruptGenerate = () => {
      interrupts++;
      if (engine.requests.length > 1) FakeEngine.prototype.interruptGenerate.call(engine);
    };
    const { port, kinds } = shared(engine);
    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const controller = new AbortController();
    const first = gate();
    const stopped = model.complete(request(controller.signal), (delta) => {
      if (delta.type === 'text') first.open();
    });
    await first.opened;
    controller.abort();
    await expect(stopped).rejects.toBeInstanceOf(CancelledError);
    const next = model.complete(request());
    await expect.poll(() => interrupts).toBe(1);
    release.open();
    await expect.poll(() => kinds.filter((kind) => kind === 'chat').length).toBe(2);
    second.open();
    expect((await next).text).toBe('The whole second answer.');
    // One interrupt for Stop, sent before the next chat, and the only one the engine got.
    expect(kinds.filter((kind) => kind === 'interrupt')).toHaveLength(1);
    expect(kinds.lastIndexOf('interrupt')).toBeLessThan(kinds.lastIndexOf('chat'));
    expect(interrupts).toBe(1);
  });

  it("a port released from the engine's end (its worker died) mid-reply stops that reply with one interrupt, whatever is still in flight", async () => {
    const hold = gate();
    const engine = new FakeEngine([['Once ', hold.opened, 'upon ', 'a ', 'time']]);
    // The pieces after the release were already on their way: the interrupt takes no effect on them.
    let interrupts = 0;
    engine.interruptGenerate = () => { interrupts++; };
    const { port, release, summarizer } = shared(engine);
    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const first = gate();
    void model.complete(request(), (delta) => {
      if (delta.type === 'text') first.open();
    }).catch(() => undefined);
    await first.opened;
    await release();
    hold.open();
    // A summary runs after the released reply was read to its end in the engine worker.
    engine.scripts.push(['Summary.']);
    expect((await summarizer.summarize(summaryRequest())).text).toBe('Summary.');
    expect(engine.requests).toHaveLength(2);
    expect(interrupts).toBe(1);
  });

  it("Stop while a summary holds the model drops the live request before it starts, and leaves the summary alone", async () => {
    const hold = gate();
    const engine = new FakeEngine([['Summary ', hold.opened, 'done.']]);
    const { summarizer, port } = shared(engine);
    await loadSharedModel(port, MODEL);
    const summary = summarizer.summarize(summaryRequest());
    await expect.poll(() => engine.requests.length).toBe(1);

    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const controller = new AbortController();
    const live = model.complete(request(controller.signal));
    controller.abort();
    await expect(live).rejects.toBeInstanceOf(CancelledError);
    hold.open();
    expect((await summary).text).toBe('Summary done.');
    expect(engine.interrupts).toBe(0);
    // The stopped request never reached the engine; the model is free for the next one.
    const next = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    engine.scripts.push(['Next.']);
    expect((await next.complete(request())).text).toBe('Next.');
    expect(engine.requests).toHaveLength(2);
  });

  it("WebLLM's context window error reaches the live end as the loop's ContextOverflowError", async () => {
    const overflow = Object.assign(new Error('Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096; consider shortening the prompt.'), { name: 'ContextWindowSizeExceededError' });
    const engine = new FakeEngine([overflow, ['After the compaction.']]);
    const { port } = shared(engine);
    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const error = await model.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect((error as Error).message).toMatch(/5000 tokens.*4096 tokens/);
    // The engine is still usable: the loop's retry after its compaction goes through.
    expect((await model.complete(request())).text).toBe('After the compaction.');
  });

  it('a chat on a port whose model was never loaded is refused with a clear error', async () => {
    const { port } = shared(new FakeEngine([['never']]));
    const client = connectWebLLM(port);
    const stream = await client.createChat({ stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const error = await (async () => {
      for await (const piece of stream) void piece;
    })().catch((e: unknown) => e);
    expect(mapWebLLMError(error, MODEL)).toMatchObject({ kind: 'not-loaded', message: expect.stringContaining(`${MODEL} is no longer loaded`) });
  });

  it('a model the engine cannot load (not downloaded, offline) fails the load and the request with its reason, once worded', async () => {
    const { port } = shared(new FakeEngine([]), { failLoad: new TypeError('Failed to fetch') });
    const loadError = await loadSharedModel(port, MODEL).catch((e: unknown) => e);
    expect((loadError as Error).message).toMatch(new RegExp(`^Downloading ${MODEL} failed: the download was interrupted`));

    const model = createWebLLMAgentModel({ modelId: MODEL, engine: sharedModelEngine(port, MODEL) });
    const error = await model.complete(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'WebLLMError' });
    expect((error as Error).message).toMatch(new RegExp(`^Downloading ${MODEL} failed: the download was interrupted; press Download again`));
    expect((error as Error).message.match(/Downloading/g)).toHaveLength(1);
  });
});
