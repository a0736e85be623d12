/**
 * The app's end of the WebLLM protocol (see webllm-protocol.ts): load a model with progress, stream
 * a chat completion, interrupt, unload, and ask WebLLM's cache. Imports only types from
 * @mlc-ai/web-llm, so whoever uses it (the page, the engine worker) does not bundle the library.
 */
import type { AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming, ChatOptions, InitProgressReport } from '@mlc-ai/web-llm';
import type { WebLLMPort, WebLLMRequest, WebLLMResponse } from './webllm-protocol.ts';

/** Spread over the union so each request keeps its own fields. */
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending {
  onMessage(response: WebLLMResponse): void;
}

export interface WebLLMClient {
  load(modelId: string, options: { appConfig?: AppConfig; chatOptions?: ChatOptions; onProgress?(report: InitProgressReport): void }): Promise<void>;
  /** Resolves at once; the chunks (or WebLLM's error) arrive through the iterable. */
  createChat(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
  interrupt(): void;
  unload(): Promise<void>;
  hasModelInCache(modelId: string, appConfig?: AppConfig): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
  /** Stop listening (the caller terminates its worker). */
  close(): void;
  /** Done with the port for good: the host is told to stop serving it (no answer awaited), then the port is closed. */
  release(): void;
}

/** An error from the worker, with WebLLM's own name (DeviceLostError, ...) so mapWebLLMError can read it. */
function remoteError(response: { name: string; message: string }): Error {
  const error = new Error(response.message);
  error.name = response.name;
  return error;
}

export function connectWebLLM(port: WebLLMPort): WebLLMClient {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listener = (event: MessageEvent) => {
    const response = event.data as WebLLMResponse;
    pending.get(response.id)?.onMessage(response);
  };
  port.addEventListener('message', listener);
  port.start?.();

  function send(body: Body<WebLLMRequest>, handler: Pending): number {
    const id = nextId++;
    pending.set(id, handler);
    port.postMessage({ ...body, id } as WebLLMRequest);
    return id;
  }

  /** A request answered by one 'done' (with an optional value) or 'error'. */
  function call<T>(body: Body<WebLLMRequest>, onProgress?: (report: InitProgressReport) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = send(body, {
        onMessage(response) {
          if (response.kind === 'progress') {
            onProgress?.(response.report);
            return;
          }
          if (response.kind === 'chunk') return;
          pending.delete(id);
          if (response.kind === 'error') reject(remoteError(response));
          else resolve(response.value as T);
        },
      });
    });
  }

  async function* stream(request: ChatCompletionRequestStreaming): AsyncGenerator<ChatCompletionChunk> {
    const queue: WebLLMResponse[] = [];
    let wake: (() => void) | undefined;
    const id = send({ kind: 'chat', request }, {
      onMessage(response) {
        queue.push(response);
        wake?.();
      },
    });
    try {
      for (;;) {
        const response = queue.shift();
        if (!response) {
          await new Promise<void>((resolve) => { wake = resolve; });
          wake = undefined;
          continue;
        }
        if (response.kind === 'chunk') yield response.chunk;
        else if (response.kind === 'error') throw remoteError(response);
        else if (response.kind === 'done') return;
      }
    } finally {
      pending.delete(id);
    }
  }

  return {
    load: (modelId, options) => call<void>({
      kind: 'load', modelId,
      ...(options.appConfig ? { appConfig: options.appConfig } : {}),
      ...(options.chatOptions ? { chatOptions: options.chatOptions } : {}),
    }, options.onProgress),
    createChat: (request) => Promise.resolve(stream(request)),
    interrupt: () => void call<void>({ kind: 'interrupt' }).catch(() => undefined),
    unload: () => call<void>({ kind: 'unload' }),
    hasModelInCache: async (modelId, appConfig) => (await call<boolean>({ kind: 'has-model', modelId, ...(appConfig ? { appConfig } : {}) })) === true,
    deleteModelAllInfoInCache: (modelId, appConfig) => call<void>({ kind: 'delete-model', modelId, ...(appConfig ? { appConfig } : {}) }),
    close,
    release: () => {
      port.postMessage({ kind: 'release', id: nextId++ } satisfies WebLLMRequest);
      close();
      port.close?.();
    },
  };

  function close(): void {
    port.removeEventListener('message', listener);
    pending.clear();
  }
}

/** Test-only (the test API's fakeWebLLMWorker): a script URL spawned instead of WebLLM's worker in this context. */
let testWorkerUrl: string | undefined;
export function setWebLLMWorkerForTest(url: string): void {
  testWorkerUrl = url;
}

/** WebLLM's worker (webllm.worker.ts, the only bundle holding the library), as a module worker. */
export function spawnWebLLMWorker(): Worker {
  if (testWorkerUrl) return new Worker(testWorkerUrl, { type: 'module', name: 'foldlab-webllm' });
  return new Worker(new URL('../../worker/webllm/webllm.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-webllm' });
}
