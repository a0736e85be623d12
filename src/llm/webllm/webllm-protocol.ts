/**
 * The messages between the app and WebLLM's own worker (webllm.worker.ts). The WebLLM library is
 * loaded in that worker alone; the page and the engine worker speak this small protocol instead of
 * importing the library's client, so the 6 MB package ships once. Every request carries an id; the
 * worker answers with progress or chunks for that id, then 'done' or 'error'.
 */
import type { AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming, ChatOptions, InitProgressReport } from '@mlc-ai/web-llm';

export type WebLLMRequest =
  | { id: number; kind: 'load'; modelId: string; appConfig?: AppConfig; chatOptions?: ChatOptions }
  | { id: number; kind: 'chat'; request: ChatCompletionRequestStreaming }
  | { id: number; kind: 'interrupt' }
  | { id: number; kind: 'unload' }
  | { id: number; kind: 'has-model'; modelId: string; appConfig?: AppConfig }
  | { id: number; kind: 'delete-model'; modelId: string; appConfig?: AppConfig }
  /** The other end is done with this port (a live session closed): no answer; the host stops serving it and lets it go. */
  | { id: number; kind: 'release' };

export type WebLLMResponse =
  | { id: number; kind: 'progress'; report: InitProgressReport }
  | { id: number; kind: 'chunk'; chunk: ChatCompletionChunk }
  | { id: number; kind: 'done'; value?: boolean }
  | { id: number; kind: 'error'; name: string; message: string };

/** Either end of the channel: a Worker, the worker's global scope, or a MessagePort. */
export interface WebLLMPort {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** MessagePort needs it before messages flow through addEventListener. */
  start?(): void;
  /** MessagePort: lets go of the channel (a released port is closed). */
  close?(): void;
}

/** An error as it crosses the channel: WebLLM's own errors are often bare strings. */
export function errorFields(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: typeof error === 'string' ? error : String(error) };
}
