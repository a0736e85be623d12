/**
 * The WebLLM summarizer: a small chat model on the user's GPU (WebGPU), in WebLLM's own Web Worker,
 * streaming the summary. WebLLM's failures (no WebGPU, GPU out of memory, interrupted download,
 * prompt over the context window) become errors that say what to do.
 */
import type {
  AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming, ChatOptions, InitProgressReport,
} from '@mlc-ai/web-llm';
import type { Summarizer, SummaryRequest, SummaryResponse } from '../../core/compaction/summarizer.ts';
import { generationInterrupt } from './generation-interrupt.ts';
import { connectWebLLM, spawnWebLLMWorker } from './webllm-client.ts';
import { mapWebLLMError, WebLLMContextOverflowError, WebLLMError, type WebLLMErrorKind } from './webllm-errors.ts';
import { SUMMARIZER_SYSTEM_PROMPT, SUMMARIZER_SYSTEM_PROMPT_ID } from '../remote/presets.ts';

export { mapWebLLMError, WebLLMContextOverflowError, WebLLMError, type WebLLMErrorKind };

export const WEBLLM_SUMMARIZER_ID = 'webllm';

/**
 * The system message sent before the rendered prompt file (the prompt carries the instructions):
 * prompts/summarizer-system.md, the remote summarizers' own, so the local model too treats the
 * transcript as data.
 */
export const DEFAULT_SYSTEM_PROMPT = SUMMARIZER_SYSTEM_PROMPT;

/** How long unload() waits for WebLLM to free the GPU before terminating its worker anyway, in ms. */
const UNLOAD_GRACE_MS = 3_000;

/** The part of WebLLM's engine (WebWorkerMLCEngine) the summarizer uses: a fake one in tests. */
export interface WebLLMEngine {
  chat: { completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> } };
  interruptGenerate(): void;
  unload(): Promise<void>;
}

export interface EngineFactoryArgs {
  modelId: string;
  appConfig?: AppConfig;
  chatOptions?: ChatOptions;
  /** WebLLM's init progress (download, then loading onto the GPU). */
  onProgress(report: InitProgressReport): void;
  /** Aborted when the load is cancelled (load(signal) aborted, or unload()): stop downloading. */
  signal: AbortSignal;
}

/** Creates a loaded engine; resolves when the model is on the GPU. */
export type WebLLMEngineFactory = (args: EngineFactoryArgs) => Promise<WebLLMEngine>;

export interface WebLLMSummarizerOptions {
  /** A WebLLM model id (see listLocalModels in webllm-models.ts). */
  modelId: string;
  /** Default: workerEngineFactory (WebLLM in its own module worker). */
  engineFactory?: WebLLMEngineFactory;
  /** Default: WebLLM's prebuiltAppConfig; selfHostedConfig() for files served by the site. */
  appConfig?: AppConfig;
  /** WebLLM chat options for the model (e.g. context_window_size); default: the model's own. */
  chatOptions?: ChatOptions;
  /** Default: DEFAULT_SYSTEM_PROMPT. */
  systemPrompt?: string;
  /** Sampling temperature; default: the model's own. */
  temperature?: number;
  /** Download / load progress: progress 0..1, WebLLM's text, timeElapsed in seconds. */
  onProgress?(report: { progress: number; text: string; timeElapsed: number }): void;
  /** Each streamed piece: the text so far and the decode speed in tokens per second. */
  onToken?(text: string, tokPerSec: number): void;
  /** Clock for tokens per second, in ms; default performance.now. */
  now?: () => number;
}

export interface WebLLMSummarizer extends Summarizer {
  readonly modelId: string;
  /** 'idle' (nothing on the GPU), 'loading' (downloading or loading), 'ready'. */
  readonly state: 'idle' | 'loading' | 'ready';
  /** Download (if needed) and load the model. Aborting the signal cancels the download; cached files are kept. */
  load(signal?: AbortSignal): Promise<void>;
  /** Cancel a load in progress, or free the GPU memory of the loaded model. */
  unload(): Promise<void>;
  /**
   * Runs `task` with the loaded engine (loading it first), in turn with the summaries: another
   * user of the same model (a live session, see webllm-shared.ts) waits for the summary being
   * generated, so its interrupt never stops that summary. A fatal failure (GPU lost) drops the
   * engine, so the next use loads it again.
   */
  withEngine<T>(task: (engine: WebLLMEngine) => Promise<T>): Promise<T>;
}

/** Kinds after which the engine is unusable: drop it so the next summary loads afresh. */
const FATAL_KINDS: ReadonlySet<WebLLMErrorKind> = new Set(['gpu-memory', 'not-loaded', 'worker']);

/** Settle with `promise`, or reject with the signal's reason as soon as it aborts (the promise keeps running). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Completed `<think>` blocks (Qwen3, DeepSeek-R1 distills) are reasoning, not summary. */
function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}

/**
 * The default engine: WebLLM in its own module worker (webllm.worker.ts), driven through the small
 * protocol of webllm-client.ts, so the library is bundled in that worker alone. Cancelling
 * terminates the worker: the download stops, shards already cached stay cached.
 */
export const workerEngineFactory: WebLLMEngineFactory = async ({ modelId, appConfig, chatOptions, onProgress, signal }) => {
  if (signal.aborted) throw signal.reason;
  const worker = spawnWebLLMWorker();
  const client = connectWebLLM(worker);
  let onError: ((event: ErrorEvent) => void) | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onError = (event) => reject(new WebLLMError('worker', `The local-model worker failed to start: ${event.message || 'unknown error'}. Reload the page and try again.`));
      onAbort = () => reject(signal.reason);
      worker.addEventListener('error', onError);
      signal.addEventListener('abort', onAbort, { once: true });
      client.load(modelId, { onProgress, ...(appConfig ? { appConfig } : {}), ...(chatOptions ? { chatOptions } : {}) }).then(resolve, reject);
    });
    return {
      chat: { completions: { create: (request) => client.createChat(request) } },
      interruptGenerate: () => client.interrupt(),
      unload: async () => {
        try {
          await Promise.race([client.unload(), new Promise((resolve) => setTimeout(resolve, UNLOAD_GRACE_MS))]);
        } finally {
          client.close();
          worker.terminate();
        }
      },
    };
  } catch (error) {
    client.close();
    worker.terminate();
    throw error;
  } finally {
    if (onError) worker.removeEventListener('error', onError);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
};

/**
 * A Summarizer (id 'webllm') running `modelId` locally. The model loads on the first summary, or
 * earlier with load() (the Download button). Summaries run one at a time: WebLLM's engine
 * generates one reply at a time, and an interrupt must only stop the reply it was meant for.
 * Aborting a summary's signal interrupts its generation and rejects with the signal's reason; if
 * the model is still loading, the load goes on (unload() stops it).
 */
export function createWebLLMSummarizer(options: WebLLMSummarizerOptions): WebLLMSummarizer {
  const { modelId } = options;
  const factory = options.engineFactory ?? workerEngineFactory;
  const now = options.now ?? (() => performance.now());
  let engine: WebLLMEngine | undefined;
  let loading: { promise: Promise<WebLLMEngine>; controller: AbortController } | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function ensureEngine(): Promise<WebLLMEngine> {
    if (engine) return Promise.resolve(engine);
    if (loading) return loading.promise;
    const controller = new AbortController();
    const promise = Promise.resolve()
      .then(() => factory({
        modelId,
        ...(options.appConfig ? { appConfig: options.appConfig } : {}),
        ...(options.chatOptions ? { chatOptions: options.chatOptions } : {}),
        onProgress: (report) => options.onProgress?.({ progress: report.progress, text: report.text, timeElapsed: report.timeElapsed }),
        signal: controller.signal,
      }))
      .then(
        async (created) => {
          if (controller.signal.aborted) {
            await created.unload().catch(() => undefined);
            throw controller.signal.reason;
          }
          engine = created;
          return created;
        },
        (error: unknown) => {
          throw controller.signal.aborted ? controller.signal.reason : mapWebLLMError(error, modelId);
        },
      )
      .finally(() => {
        if (loading?.controller === controller) loading = undefined;
      });
    loading = { promise, controller };
    return promise;
  }

  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  async function discard(broken: WebLLMEngine): Promise<void> {
    if (engine === broken) engine = undefined;
    await broken.unload().catch(() => undefined);
  }

  async function generate(current: WebLLMEngine, request: SummaryRequest): Promise<SummaryResponse> {
    const { signal } = request;
    const body: ChatCompletionRequestStreaming = {
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT },
        { role: 'user', content: request.prompt },
      ],
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      // Qwen3's thinking would spend the reply budget on reasoning; WebLLM allows turning it off for Qwen3 only.
      ...(/^Qwen3/i.test(modelId) ? { extra_body: { enable_thinking: false } } : {}),
    };
    const stop = generationInterrupt(() => current.interruptGenerate());
    const interrupt = () => stop.interrupt();
    let text = '';
    let usage: SummaryResponse['usage'];
    let pieces = 0;
    let firstAt: number | undefined;
    signal.addEventListener('abort', interrupt, { once: true });
    try {
      const stream = await current.chat.completions.create(body);
      // Read to the end even after an abort: WebLLM's worker keeps its generation lock until the
      // stream finishes, and the next summary would wait forever.
      for await (const chunk of stream) {
        stop.chunk(chunk);
        const delta = chunk.choices[0]?.delta.content;
        if (signal.aborted) continue;
        if (delta) {
          const at = now();
          firstAt ??= at;
          pieces++;
          text += delta;
          const seconds = (at - firstAt) / 1000;
          options.onToken?.(text, seconds > 0 ? (pieces - 1) / seconds : 0);
        }
        if (chunk.usage) {
          usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
          const rate = chunk.usage.extra?.decode_tokens_per_s;
          if (typeof rate === 'number' && Number.isFinite(rate)) options.onToken?.(text, rate);
        }
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const mapped = mapWebLLMError(error, modelId);
      if (mapped instanceof WebLLMError && FATAL_KINDS.has(mapped.kind)) await discard(current);
      throw mapped;
    } finally {
      signal.removeEventListener('abort', interrupt);
    }
    if (signal.aborted) throw signal.reason;
    return { text: stripThinking(text), ...(usage ? { usage } : {}), model: modelId };
  }

  return {
    id: WEBLLM_SUMMARIZER_ID,
    label: `Local model (WebLLM): ${modelId}`,
    // The prompt file's id, so its version is recorded with each run (absent for a system prompt given in code).
    ...(options.systemPrompt === undefined ? { systemPrompt: SUMMARIZER_SYSTEM_PROMPT_ID } : {}),
    modelId,
    get state() {
      return engine ? 'ready' : loading ? 'loading' : 'idle';
    },

    async load(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) throw signal.reason;
      const pending = ensureEngine();
      if (!signal) {
        await pending;
        return;
      }
      const current = loading;
      const cancel = () => {
        if (current && loading === current) {
          loading = undefined;
          current.controller.abort(signal.reason);
        }
      };
      signal.addEventListener('abort', cancel, { once: true });
      try {
        await untilAborted(pending, signal);
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    },

    async unload(): Promise<void> {
      const pending = loading;
      loading = undefined;
      pending?.controller.abort(new WebLLMError('unloaded', `Loading ${modelId} was cancelled: the model was unloaded. Cached files are kept.`));
      const current = engine;
      engine = undefined;
      if (current) await current.unload();
    },

    async withEngine<T>(task: (engine: WebLLMEngine) => Promise<T>): Promise<T> {
      await ensureEngine();
      return enqueue(async () => {
        const current = await ensureEngine();
        try {
          return await task(current);
        } catch (error) {
          const mapped = mapWebLLMError(error, modelId);
          if (mapped instanceof WebLLMError && FATAL_KINDS.has(mapped.kind)) await discard(current);
          throw error;
        }
      });
    },

    async summarize(request: SummaryRequest): Promise<SummaryResponse> {
      const { signal } = request;
      if (signal.aborted) throw signal.reason;
      // Load first so a load failure is reported even when another summary holds the queue.
      await untilAborted(ensureEngine(), signal);
      return untilAborted(enqueue(async () => {
        // Aborted while queued: never reaches the engine.
        if (signal.aborted) throw signal.reason;
        return generate(await ensureEngine(), request);
      }), signal);
    },
  };
}
