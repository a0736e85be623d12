/**
 * The worker end of the WebLLM protocol: one engine per worker, loaded on 'load', streaming chat
 * chunks, interrupt and unload, and the model cache queries. The library is injected, so this file
 * imports nothing from @mlc-ai/web-llm and runs in Node tests with a fake engine.
 */
import type { AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming, ChatOptions, InitProgressReport } from '@mlc-ai/web-llm';
import { errorFields, type WebLLMPort, type WebLLMRequest, type WebLLMResponse } from './webllm-protocol.ts';

/** The part of WebLLM's MLCEngine the host drives. */
export interface HostedEngine {
  chat: { completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> } };
  interruptGenerate(): unknown;
  unload(): Promise<void>;
}

/** What the host needs from the library (webllm.worker.ts passes the real functions). */
export interface WebLLMLibrary {
  createEngine(modelId: string, options: { appConfig?: AppConfig; chatOptions?: ChatOptions; onProgress(report: InitProgressReport): void }): Promise<HostedEngine>;
  hasModelInCache(modelId: string, appConfig?: AppConfig): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: AppConfig): Promise<void>;
}

/**
 * Answer WebLLM requests arriving on `port` until the other end releases it (then `onRelease`
 * runs). The function returned does the same from this end, for a port whose other end is gone
 * (a MessagePort does not tell when the worker holding its other end dies).
 */
export function serveWebLLM(port: WebLLMPort, library: WebLLMLibrary, onRelease?: () => void): () => Promise<void> {
  let engine: HostedEngine | undefined;
  let released = false;
  const send = (response: WebLLMResponse) => port.postMessage(response);
  const fail = (id: number, error: unknown) => send({ id, kind: 'error', ...errorFields(error) });

  async function handle(request: WebLLMRequest): Promise<void> {
    switch (request.kind) {
      case 'load': {
        const previous = engine;
        engine = undefined;
        await previous?.unload();
        engine = await library.createEngine(request.modelId, {
          ...(request.appConfig ? { appConfig: request.appConfig } : {}),
          ...(request.chatOptions ? { chatOptions: request.chatOptions } : {}),
          onProgress: (report) => send({ id: request.id, kind: 'progress', report }),
        });
        send({ id: request.id, kind: 'done' });
        return;
      }
      case 'chat': {
        if (!engine) throw Object.assign(new Error('Model not loaded before calling chat.completions.create.'), { name: 'ModelNotLoadedError' });
        for await (const chunk of await engine.chat.completions.create(request.request)) send({ id: request.id, kind: 'chunk', chunk });
        send({ id: request.id, kind: 'done' });
        return;
      }
      case 'interrupt':
        await engine?.interruptGenerate();
        send({ id: request.id, kind: 'done' });
        return;
      case 'unload': {
        const current = engine;
        engine = undefined;
        await current?.unload();
        send({ id: request.id, kind: 'done' });
        return;
      }
      case 'has-model':
        send({ id: request.id, kind: 'done', value: await library.hasModelInCache(request.modelId, request.appConfig) });
        return;
      case 'delete-model':
        await library.deleteModelAllInfoInCache(request.modelId, request.appConfig);
        send({ id: request.id, kind: 'done' });
        return;
      case 'release':
        await release();
        return;
    }
  }

  /** Nobody reads this port any more: a generation still running for it is stopped. */
  async function release(): Promise<void> {
    if (released) return;
    released = true;
    port.removeEventListener('message', listener);
    const current = engine;
    engine = undefined;
    if (current) {
      current.interruptGenerate();
      await current.unload().catch(() => undefined);
    }
    onRelease?.();
  }

  const listener = (event: MessageEvent) => {
    const request = event.data as WebLLMRequest;
    handle(request).catch((error: unknown) => fail(request.id, error));
  };
  port.addEventListener('message', listener);
  port.start?.();
  return release;
}
