// The WebLLM summarizer against a fake engine: streaming and usage, lazy and explicit loading,
// progress, aborts (mid-stream, queued, during a load), unload, and WebLLM's errors (their texts
// read from the installed package) mapped to messages a user can act on.
import { readFileSync } from 'node:fs';
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, InitProgressReport } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { makeEntries } from '../../core/compaction/testing.ts';
import { SummarizerError, SummaryTimeoutError, type SummaryRequest } from '../../core/compaction/summarizer.ts';
import {
  createWebLLMSummarizer, DEFAULT_SYSTEM_PROMPT, mapWebLLMError, WebLLMContextOverflowError, WebLLMError,
  type EngineFactoryArgs, type WebLLMEngine, type WebLLMSummarizerOptions,
} from './webllm.ts';

const MODEL = 'SmolLM2-360M-Instruct-q4f16_1-MLC';

function chunk(content: string | undefined, finish: 'stop' | 'abort' | null = null): ChatCompletionChunk {
  return {
    id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: content === undefined ? {} : { content, role: 'assistant' }, finish_reason: finish }],
  };
}

function usageChunk(input: number, output: number, decode = 42): ChatCompletionChunk {
  return {
    id: 'c', created: 0, model: MODEL, object: 'chat.completion.chunk', choices: [],
    usage: {
      prompt_tokens: input, completion_tokens: output, total_tokens: input + output,
      extra: { e2e_latency_s: 1, prefill_tokens_per_s: 100, decode_tokens_per_s: decode, time_to_first_token_s: 0.1, time_per_output_token_s: 0.02 },
    },
  };
}

/** Behaves like WebWorkerMLCEngine for what the summarizer uses, including WebLLM's reset of the interrupt flag when a generation starts. */
class FakeEngine implements WebLLMEngine {
  requests: ChatCompletionRequestStreaming[] = [];
  interrupts = 0;
  unloads = 0;
  reloads: string[] = [];
  drained = 0;
  private interrupted = false;
  /** Awaited before each content chunk. */
  beforeChunk: (index: number) => Promise<void> | void = () => undefined;
  createError: unknown;
  streamError: unknown;
  onCreate: () => void = () => undefined;

  constructor(public deltas: string[] = ['Hello', ' world'], public usage: ChatCompletionChunk | null = usageChunk(12, 2)) {}

  chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.requests.push(request);
        this.onCreate();
        if (this.createError !== undefined) throw this.createError;
        return this.stream();
      },
    },
  };

  private async *stream(): AsyncGenerator<ChatCompletionChunk> {
    this.interrupted = false;
    for (const [index, delta] of this.deltas.entries()) {
      await this.beforeChunk(index);
      if (this.interrupted) break;
      if (this.streamError !== undefined && index === 1) throw this.streamError;
      yield chunk(delta);
    }
    yield chunk(undefined, this.interrupted ? 'abort' : 'stop');
    if (this.usage) yield this.usage;
    this.drained++;
  }

  interruptGenerate(): void {
    this.interrupts++;
    this.interrupted = true;
  }

  async unload(): Promise<void> {
    this.unloads++;
  }

  async reload(modelId: string): Promise<void> {
    this.reloads.push(modelId);
  }
}

interface FactoryCall {
  args: EngineFactoryArgs;
  resolve(engine: WebLLMEngine): void;
  reject(error: unknown): void;
}

/** A factory whose loads the test settles by hand; like the real one, it rejects when its signal aborts. */
function manualFactory() {
  const calls: FactoryCall[] = [];
  const factory = (args: EngineFactoryArgs) => new Promise<WebLLMEngine>((resolve, reject) => {
    args.signal.addEventListener('abort', () => reject(args.signal.reason), { once: true });
    calls.push({ args, resolve, reject });
  });
  return { calls, factory };
}

function summarizerWith(engine: FakeEngine, extra: Partial<WebLLMSummarizerOptions> = {}) {
  const calls: EngineFactoryArgs[] = [];
  const summarizer = createWebLLMSummarizer({
    modelId: MODEL,
    engineFactory: async (args) => {
      calls.push(args);
      return engine;
    },
    ...extra,
  });
  return { summarizer, calls };
}

function request(signal: AbortSignal = new AbortController().signal, extra: Partial<SummaryRequest> = {}): SummaryRequest {
  const entries = makeEntries([{ user: 'fix the bug' }, { assistant: 'Done.' }]);
  return { taskId: 't', promptId: 'pi-summary', prompt: 'Summarize:\n<conversation>...</conversation>', entries, serialized: '...', vars: {}, signal, ...extra };
}

/** The rejection of a promise that must reject. */
async function rejection<E = WebLLMError>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a rejection');
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('createWebLLMSummarizer: streaming', () => {
  it('streams the deltas into the summary, with usage from the last chunk', async () => {
    const engine = new FakeEngine();
    const { summarizer } = summarizerWith(engine);
    expect(summarizer.id).toBe('webllm');
    expect(summarizer.modelId).toBe(MODEL);
    const response = await summarizer.summarize(request(undefined, { maxTokens: 300 }));
    expect(response).toEqual({ text: 'Hello world', usage: { input: 12, output: 2 }, model: MODEL });
    expect(engine.requests).toEqual([{
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'system', content: DEFAULT_SYSTEM_PROMPT }, { role: 'user', content: 'Summarize:\n<conversation>...</conversation>' }],
      max_tokens: 300,
    }]);
  });

  it('reports the text so far and tokens per second, ending with WebLLM\'s decode rate', async () => {
    const engine = new FakeEngine(['a', 'b', 'c']);
    let clock = 0;
    const seen: Array<[string, number]> = [];
    const { summarizer } = summarizerWith(engine, {
      now: () => (clock += 500),
      onToken: (text, rate) => seen.push([text, rate]),
      systemPrompt: 'Be brief.',
      temperature: 0.2,
    });
    await summarizer.summarize(request());
    expect(seen).toEqual([['a', 0], ['ab', 2], ['abc', 2], ['abc', 42]]);
    expect(engine.requests[0]!.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(engine.requests[0]!.temperature).toBe(0.2);
  });

  it('returns no usage when the stream has none, and drops completed <think> blocks', async () => {
    const engine = new FakeEngine(['<think>\nhmm', '</think>\n\n', 'Summary.'], null);
    const { summarizer } = summarizerWith(engine);
    expect(await summarizer.summarize(request())).toEqual({ text: 'Summary.', model: MODEL });
  });

  it('turns Qwen3 thinking off', async () => {
    const engine = new FakeEngine();
    const { summarizer } = summarizerWith(engine, { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    await summarizer.summarize(request());
    expect(engine.requests[0]!.extra_body).toEqual({ enable_thinking: false });
  });
});

describe('createWebLLMSummarizer: loading', () => {
  it('loads lazily, once, on the first summary, forwarding the options', async () => {
    const engine = new FakeEngine();
    const appConfig = { model_list: [] };
    const { summarizer, calls } = summarizerWith(engine, { appConfig, chatOptions: { context_window_size: 2048 } });
    expect(calls).toHaveLength(0);
    expect(summarizer.state).toBe('idle');
    await Promise.all([summarizer.summarize(request()), summarizer.summarize(request())]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ modelId: MODEL, appConfig, chatOptions: { context_window_size: 2048 } });
    expect(summarizer.state).toBe('ready');
    expect(engine.requests).toHaveLength(2);
  });

  it('load() loads ahead of the first summary, which then reuses the engine', async () => {
    const engine = new FakeEngine();
    const { summarizer, calls } = summarizerWith(engine);
    await summarizer.load();
    expect(summarizer.state).toBe('ready');
    await summarizer.summarize(request());
    expect(calls).toHaveLength(1);
  });

  it('forwards init progress', async () => {
    const reports: InitProgressReport[] = [];
    const summarizer = createWebLLMSummarizer({
      modelId: MODEL,
      onProgress: (report) => reports.push(report),
      engineFactory: async ({ onProgress }) => {
        onProgress({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
        onProgress({ progress: 0.5, timeElapsed: 3, text: 'Fetching param cache[10/20]: 150MB fetched. 50% completed' });
        onProgress({ progress: 1, timeElapsed: 7, text: 'Finish loading on WebGPU - nvidia' });
        return new FakeEngine();
      },
    });
    await summarizer.load();
    expect(reports.map((r) => r.progress)).toEqual([0, 0.5, 1]);
    expect(reports[1]).toEqual({ progress: 0.5, timeElapsed: 3, text: 'Fetching param cache[10/20]: 150MB fetched. 50% completed' });
  });

  it('aborting load(signal) cancels the download; the next load starts again', async () => {
    const { calls, factory } = manualFactory();
    const summarizer = createWebLLMSummarizer({ modelId: MODEL, engineFactory: factory });
    const controller = new AbortController();
    const loading = summarizer.load(controller.signal);
    await flush();
    expect(summarizer.state).toBe('loading');
    const reason = new Error('user pressed cancel');
    controller.abort(reason);
    await expect(loading).rejects.toBe(reason);
    expect(calls[0]!.args.signal.aborted).toBe(true);
    expect(summarizer.state).toBe('idle');

    const again = summarizer.load();
    await flush();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(new FakeEngine());
    await again;
    expect(summarizer.state).toBe('ready');
  });

  it('a summary aborted during the load rejects at once; the load goes on', async () => {
    const { calls, factory } = manualFactory();
    const summarizer = createWebLLMSummarizer({ modelId: MODEL, engineFactory: factory });
    const controller = new AbortController();
    const pending = summarizer.summarize(request(controller.signal));
    await flush();
    const reason = new SummaryTimeoutError(120_000);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(calls[0]!.args.signal.aborted).toBe(false);
    expect(summarizer.state).toBe('loading');
    const engine = new FakeEngine();
    calls[0]!.resolve(engine);
    await summarizer.load();
    expect(summarizer.state).toBe('ready');
    expect(engine.requests).toHaveLength(0);
  });

  it('unload() cancels a load in progress and frees a loaded model', async () => {
    const { calls, factory } = manualFactory();
    const summarizer = createWebLLMSummarizer({ modelId: MODEL, engineFactory: factory });
    const pending = summarizer.summarize(request());
    await flush();
    await summarizer.unload();
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(WebLLMError);
    expect((error as WebLLMError).kind).toBe('unloaded');
    expect(calls[0]!.args.signal.aborted).toBe(true);

    const engine = new FakeEngine();
    const loading = summarizer.load();
    await flush();
    calls[1]!.resolve(engine);
    await loading;
    await summarizer.unload();
    expect(engine.unloads).toBe(1);
    expect(summarizer.state).toBe('idle');
  });

  it('unloads an engine that arrives after its load was cancelled', async () => {
    const engine = new FakeEngine();
    let release!: () => void;
    const summarizer = createWebLLMSummarizer({
      modelId: MODEL,
      // Ignores its signal, as a factory may.
      engineFactory: () => new Promise((resolve) => { release = () => resolve(engine); }),
    });
    const controller = new AbortController();
    const loading = summarizer.load(controller.signal);
    await flush();
    controller.abort(new Error('cancel'));
    await expect(loading).rejects.toThrow('cancel');
    release();
    await flush();
    expect(engine.unloads).toBe(1);
    expect(summarizer.state).toBe('idle');
  });
});

describe('createWebLLMSummarizer: abort', () => {
  it('abort mid-stream calls interruptGenerate, rejects with the reason, and drains the stream', async () => {
    const engine = new FakeEngine(['one ', 'two ', 'three ', 'four']);
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const { summarizer } = summarizerWith(engine, {
      onToken: (text) => {
        if (text === 'one two ') controller.abort(reason);
      },
    });
    await expect(summarizer.summarize(request(controller.signal))).rejects.toBe(reason);
    expect(engine.interrupts).toBeGreaterThanOrEqual(1);
    await flush();
    expect(engine.drained).toBe(1);
    // The engine is free for the next summary.
    engine.deltas = ['next'];
    expect((await summarizer.summarize(request())).text).toBe('next');
  });

  it('pieces already on their way when the summary was aborted bring no more interrupts', async () => {
    const engine = new FakeEngine(['one ', 'two ', 'three ', 'four']);
    // The interrupt reaches the engine after the last piece was sent: every piece still arrives.
    engine.interruptGenerate = () => { engine.interrupts++; };
    const controller = new AbortController();
    const { summarizer } = summarizerWith(engine, {
      onToken: (text) => {
        if (text === 'one ') controller.abort(new Error('cancelled'));
      },
    });
    await expect(summarizer.summarize(request(controller.signal))).rejects.toThrow('cancelled');
    await flush();
    expect(engine.drained).toBe(1);
    expect(engine.interrupts).toBe(1);
  });

  it('repeats the interrupt when the abort came before generation started', async () => {
    const engine = new FakeEngine(['a', 'b', 'c']);
    const controller = new AbortController();
    engine.onCreate = () => controller.abort(new Error('early'));
    const { summarizer } = summarizerWith(engine);
    await summarizer.load();
    await expect(summarizer.summarize(request(controller.signal))).rejects.toThrow('early');
    await flush();
    expect(engine.drained).toBe(1);
    expect(engine.interrupts).toBe(2);
  });

  it('rejects an already-aborted request without touching the engine', async () => {
    const engine = new FakeEngine();
    const { summarizer, calls } = summarizerWith(engine);
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(summarizer.summarize(request(controller.signal))).rejects.toThrow('too late');
    expect(calls).toHaveLength(0);
  });

  it('runs summaries one at a time; a queued summary aborted before its turn never reaches the engine', async () => {
    const engine = new FakeEngine(['x', 'y']);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    engine.beforeChunk = (index) => (index === 0 && engine.requests.length === 1 ? gate : undefined);
    const { summarizer } = summarizerWith(engine);
    const first = summarizer.summarize(request());
    const controller = new AbortController();
    const second = summarizer.summarize(request(controller.signal));
    await flush();
    expect(engine.requests).toHaveLength(1);
    controller.abort(new Error('skip me'));
    await expect(second).rejects.toThrow('skip me');
    open();
    expect((await first).text).toBe('xy');
    await flush();
    expect(engine.requests).toHaveLength(1);
  });
});

// WebLLM's own texts, read from the installed package so a wording change there fails here.
const LIB = readFileSync('node_modules/@mlc-ai/web-llm/lib/index.js', 'utf8');

function libMessage(className: string, values: Record<string, string | number> = {}): string {
  const match = new RegExp(`class ${className} extends \\w+ \\{\\s*constructor\\([^)]*\\) \\{\\s*super\\(([\\s\\S]*?)\\);\\s*this\\.name`).exec(LIB);
  if (!match) throw new Error(`${className} not found in the installed WebLLM`);
  const literals = [...match[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  return literals.join('').replace(/\$\{(\w+)\}/g, (_, name: string) => String(values[name] ?? name));
}

/** As WebLLM's worker sends it: err.toString(). */
function fromWorker(className: string, values?: Record<string, string | number>): string {
  return `${className}: ${libMessage(className, values)}`;
}

function failingLoad(error: unknown) {
  return createWebLLMSummarizer({ modelId: MODEL, engineFactory: async () => { throw error; } });
}

describe('WebLLM errors', () => {
  it('finds the texts it matches in the installed WebLLM', () => {
    expect(libMessage('DeviceLostError')).toMatch(/device was lost/);
    expect(libMessage('ContextWindowSizeExceededError', { numPromptTokens: 1, contextWindowSize: 2 })).toMatch(/number of prompt tokens: 1; context window size: 2/);
    expect(LIB).toContain('Unable to find a compatible GPU');
  });

  it('device lost while loading -> out of GPU memory', async () => {
    const original = fromWorker('DeviceLostError');
    const error = await rejection(failingLoad(original).load());
    expect(error).toBeInstanceOf(WebLLMError);
    expect(error).toBeInstanceOf(SummarizerError);
    expect((error as WebLLMError).kind).toBe('gpu-memory');
    expect((error as Error).message).toMatch(/GPU ran out of memory running SmolLM2.*pick a smaller model/);
    expect((error as Error).cause).toBe(original);
  });

  it('device lost during a summary -> out of GPU memory, and the next summary loads afresh', async () => {
    const engine = new FakeEngine(['a', 'b']);
    const lost = new Error(libMessage('DeviceLostError'));
    lost.name = 'DeviceLostError';
    engine.streamError = lost;
    const { summarizer, calls } = summarizerWith(engine);
    await expect(summarizer.summarize(request())).rejects.toMatchObject({ name: 'WebLLMError', kind: 'gpu-memory' });
    expect(engine.unloads).toBe(1);
    expect(summarizer.state).toBe('idle');
    engine.streamError = undefined;
    await summarizer.summarize(request());
    expect(calls).toHaveLength(2);
  });

  it('no WebGPU -> "Local models need WebGPU: ..."', async () => {
    for (const original of [fromWorker('WebGPUNotAvailableError'), fromWorker('WebGPUNotFoundError'), 'Error: Unable to find a compatible GPU. This issue might be because your computer doesn\'t have a GPU']) {
      const error = await rejection(failingLoad(original).load());
      expect(error.kind).toBe('webgpu');
      expect(error.message).toMatch(/^Local models need WebGPU: /);
    }
    expect(mapWebLLMError('Error: Unable to find a compatible GPU.', MODEL).message).toContain('no compatible GPU adapter');
  });

  it('no shader-f16 -> pick an f32 model', () => {
    const error = mapWebLLMError(fromWorker('ShaderF16SupportError'), MODEL) as WebLLMError;
    expect(error.kind).toBe('shader-f16');
    expect(error.message).toMatch(/q4f32/);
  });

  it('network failure during the weights download -> press Download again', async () => {
    const phrase = 'the download was interrupted; press Download again to resume — files already cached are kept';
    for (const original of [
      new TypeError('Failed to fetch'),
      'TypeError: NetworkError when attempting to fetch resource.',
      'Error: Failed to store https://huggingface.co/x/params_shard_3.bin with error: TypeError: Load failed',
      "TypeError: Failed to execute 'add' on 'Cache': Request failed",
    ]) {
      const error = await rejection(failingLoad(original).load());
      expect(error.kind, String(original)).toBe('download');
      expect(error.message).toContain(phrase);
    }
  });

  it('prompt over the context window -> ContextOverflowError with the numbers', async () => {
    const engine = new FakeEngine();
    const original = new Error(libMessage('ContextWindowSizeExceededError', { numPromptTokens: 5123, contextWindowSize: 4096 }));
    original.name = 'ContextWindowSizeExceededError';
    engine.createError = original;
    const { summarizer } = summarizerWith(engine);
    const error = await rejection<WebLLMContextOverflowError>(summarizer.summarize(request()));
    expect(error).toBeInstanceOf(WebLLMContextOverflowError);
    expect(error.name).toBe('ContextOverflowError');
    expect(error).toMatchObject({ promptTokens: 5123, contextWindow: 4096, modelId: MODEL });
    expect(error.message).toMatch(/5123 tokens.*4096 tokens/);
    // The worker's string form maps the same way.
    expect(mapWebLLMError(fromWorker('ContextWindowSizeExceededError', { numPromptTokens: 9000, contextWindowSize: 1024 }), MODEL)).toMatchObject({ name: 'ContextOverflowError', promptTokens: 9000, contextWindow: 1024 });
    // The engine is still usable after an overflow.
    expect(summarizer.state).toBe('ready');
  });

  it('storage full, unknown model, anything else', () => {
    expect(mapWebLLMError('QuotaExceededError: The quota has been exceeded.', MODEL)).toMatchObject({ kind: 'storage' });
    expect(mapWebLLMError(fromWorker('ModelNotFoundError', { modelId: 'X' }), 'X')).toMatchObject({ kind: 'unknown-model' });
    const other = mapWebLLMError(new Error('something odd'), MODEL) as WebLLMError;
    expect(other.kind).toBe('other');
    expect(other.message).toContain('something odd');
    const already = new WebLLMError('download', 'x');
    expect(mapWebLLMError(already, MODEL)).toBe(already);
  });
});
