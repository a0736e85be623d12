/**
 * The page's handle on the engine worker: created once, lazily. Callbacks are proxied so progress
 * reaches the page; errors arrive as Error objects carrying the worker's name and message.
 */
import * as Comlink from 'comlink';
import type { EngineApi } from './protocol.ts';

let remote: Comlink.Remote<EngineApi> | undefined;

export function engine(): Comlink.Remote<EngineApi> {
  if (!remote) {
    const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'foldlab-engine' });
    remote = Comlink.wrap<EngineApi>(worker);
  }
  return remote;
}

export const proxy = Comlink.proxy;

/** A job id unique within this page. */
export function newJobId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}
