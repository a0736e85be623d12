/**
 * One loaded WebLLM model shared with another worker: the engine worker keeps the model its
 * summaries use (compaction-jobs.ts), and a live session's worker reaches that same model through
 * a MessagePort speaking the WebLLM protocol (webllm-protocol.ts) instead of loading a second copy
 * onto the GPU. The engine worker's end runs each chat in turn with the summaries; the live end is
 * a WebLLMEngine for agent-webllm.ts. Imports only types from @mlc-ai/web-llm.
 *
 *   live worker ──port──▶ engine worker ──(its own worker)──▶ WebLLM
 *   createWebLLMAgentModel   serveSharedModel → summarizer.withEngine
 */
import type { AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming, InitProgressReport } from '@mlc-ai/web-llm';
import { generationInterrupt, type GenerationInterrupt } from './generation-interrupt.ts';
import { connectWebLLM } from './webllm-client.ts';
import { serveWebLLM, type HostedEngine } from './webllm-host.ts';
import type { WebLLMPort } from './webllm-protocol.ts';
import { WebLLMError, type WebLLMEngine } from './webllm.ts';

/** The part of the engine worker's WebLLMSummarizer a shared port uses. */
export interface SharedLocalModel {
  /** Loads the model if it is not on the GPU yet (from the browser's cache, or downloading). */
  load(): Promise<void>;
  /** Runs `task` with the loaded engine, one generation at a time with the summaries. */
  withEngine<T>(task: (engine: WebLLMEngine) => Promise<T>): Promise<T>;
}

/** The engine worker's model for an id (made, or the one already loaded), reporting load progress. */
export type SharedModelSource = (modelId: string, appConfig: AppConfig | undefined, onProgress: (report: InitProgressReport) => void) => SharedLocalModel;

/** The other end asked for a cache operation, which only Settings does (through WebLLM's own worker). */
export class SharedModelRequestError extends Error {
  override name = 'SharedModelRequestError';
}

/** A stream filled by a producer and read by one consumer. */
function pushable<T>() {
  const items: T[] = [];
  let ended: { error?: unknown } | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(item: T) {
      items.push(item);
      poke();
    },
    end(error?: unknown) {
      ended = error === undefined ? {} : { error };
      poke();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      for (;;) {
        if (items.length > 0) {
          yield items.shift()!;
          continue;
        }
        if (ended) {
          if ('error' in ended) throw ended.error;
          return;
        }
        await new Promise<void>((resolve) => { wake = resolve; });
      }
    },
  };
}

interface Generation {
  stop: GenerationInterrupt;
  engine?: WebLLMEngine;
}

/**
 * The port's view of the shared model: chats wait their turn; an interrupt stops only this port's
 * generation (or drops it before it starts); unload leaves the model loaded for the summaries.
 */
function sharedView(model: SharedLocalModel): HostedEngine {
  let active: Generation | undefined;
  return {
    chat: {
      completions: {
        create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
          const run: Generation = { stop: generationInterrupt(() => run.engine?.interruptGenerate()) };
          active = run;
          const out = pushable<ChatCompletionChunk>();
          model.withEngine(async (engine) => {
            // Stopped while a summary held the model: never reaches the engine.
            if (run.stop.interrupted) return;
            run.engine = engine;
            try {
              for await (const chunk of await engine.chat.completions.create(request)) {
                // Repeats the interrupt once if it may have come before WebLLM started the generation.
                run.stop.chunk(chunk);
                out.push(chunk);
              }
            } finally {
              run.engine = undefined;
            }
          }).then(() => out.end(), (error: unknown) => out.end(error ?? new Error('The local model failed.')));
          return out;
        },
      },
    },
    interruptGenerate: () => active?.stop.interrupt(),
    unload: async () => {
      active = undefined;
    },
  };
}

/**
 * The engine worker's end: answers load and chat on `port` with the shared model (never a second
 * copy), until the other end releases the port (`onRelease` then forgets and closes it). The
 * function returned releases it from this end (the worker holding the other end died).
 */
export function serveSharedModel(port: WebLLMPort, source: SharedModelSource, onRelease?: () => void): () => Promise<void> {
  const refuse = () => Promise.reject(new SharedModelRequestError('A shared local model answers chats only; the model cache is managed in Settings > Models.'));
  return serveWebLLM(port, {
    createEngine: async (modelId, { appConfig, onProgress }) => {
      const model = source(modelId, appConfig, onProgress);
      await model.load();
      return sharedView(model);
    },
    hasModelInCache: refuse,
    deleteModelAllInfoInCache: refuse,
  }, onRelease);
}

/** Done with a port that was never handed on (the load failed, or the session could not start): both ends let go. */
export function releaseSharedModel(port: WebLLMPort): void {
  connectWebLLM(port).release();
}

/** Loads `modelId` through the port (progress as WebLLM reports it); the port can then be handed on. */
export async function loadSharedModel(port: WebLLMPort, modelId: string, options: { appConfig?: AppConfig; onProgress?: (report: InitProgressReport) => void } = {}): Promise<void> {
  const client = connectWebLLM(port);
  try {
    await client.load(modelId, options);
  } finally {
    client.close();
  }
}

/**
 * The live worker's end: a WebLLMEngine over the port. The model is loaded through the port
 * before the first chat (at once when it is on the GPU already, e.g. loaded when the session
 * started, and again after the GPU was reset).
 */
export function sharedModelEngine(port: WebLLMPort, modelId: string, appConfig?: AppConfig): WebLLMEngine & { release(): void } {
  const client = connectWebLLM(port);
  let loaded: Promise<void> | undefined;
  /** Settles when the last stream was read to its end (see create). */
  let previous: Promise<void> = Promise.resolve();
  const ensureLoaded = () => {
    loaded ??= client.load(modelId, appConfig ? { appConfig } : {}).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return {
    chat: {
      completions: {
        create: async (request) => {
          // An interrupt names no generation: a stopped reply still being drained may send more,
          // so the next chat goes out after them and they cannot stop it.
          await previous;
          await ensureLoaded();
          let drained!: () => void;
          previous = new Promise<void>((resolve) => { drained = resolve; });
          const stream = await client.createChat(request);
          return notLoadedAgain(stream, modelId, () => { loaded = undefined; }, drained);
        },
      },
    },
    interruptGenerate: () => client.interrupt(),
    // The model stays loaded in the engine worker for its summaries: only this port lets go.
    unload: async () => {
      await client.unload().catch(() => undefined);
      loaded = undefined;
    },
    // The session closed: the engine worker stops serving the port and both ends are closed.
    release: () => {
      loaded = undefined;
      client.release();
    },
  };
}

/** A chat refused because the port's model was not loaded says what to do; the next chat loads it again. */
async function* notLoadedAgain(stream: AsyncIterable<ChatCompletionChunk>, modelId: string, reset: () => void, drained: () => void): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* stream;
  } catch (error) {
    if (error instanceof Error && /ModelNotLoadedError/.test(error.name)) {
      reset();
      throw new WebLLMError('not-loaded', `${modelId} is not loaded in this tab's local-model engine: send the request again to load it (from the browser's cache), or download it again in Settings > Models.`, { cause: error });
    }
    throw error;
  } finally {
    drained();
  }
}
