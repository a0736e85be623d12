/**
 * The page's part in a live session on the local WebLLM model: it opens a MessageChannel between
 * the engine worker (which holds the one loaded copy of the model, the one its summaries use) and
 * the session's worker, loads the model through it with progress, and hands the port on. The page
 * relays nothing afterwards: chunks go from the engine worker to the session's worker directly.
 */
import type { InitProgressReport } from '@mlc-ai/web-llm';
import { loadSharedModel, releaseSharedModel } from '../llm/webllm/webllm-shared.ts';
import { mapWebLLMError } from '../llm/webllm/webllm.ts';
import type { LiveModelSpec } from './live-model.ts';
import { engine, engineClient } from '../worker/client.ts';
import * as Comlink from 'comlink';

/** Load progress of the local model: 0..1 and WebLLM's text ("Loading model from cache[3/24]..."). */
export type LocalModelProgress = (report: InitProgressReport) => void;

/** Hands the engine worker its end of the channel and the page's key for it (the page passes the engine worker's serveLocalModel). */
export type ServeLocalModel = (port: MessagePort, key: string) => Promise<void>;

const serveInEngine: ServeLocalModel = (port, key) => engine().serveLocalModel(Comlink.transfer(port, [port]), key);

/** A connected spec; a local model's carries the key under which the engine worker serves its port. */
export type ConnectedModel = LiveModelSpec & { portKey?: string };

/**
 * The spec with a port to the engine worker's model, loaded; other specs as they are. A failed
 * load releases both ends, so the engine worker keeps no port for a session that never started.
 */
export async function connectLiveModel(spec: LiveModelSpec, onProgress?: LocalModelProgress, serve: ServeLocalModel = serveInEngine): Promise<ConnectedModel> {
  if (spec.kind !== 'webllm') return spec;
  const channel = new MessageChannel();
  const portKey = `port-${crypto.randomUUID()}`;
  try {
    await serve(channel.port2, portKey);
  } catch (error) {
    channel.port1.close();
    throw error;
  }
  try {
    await loadSharedModel(channel.port1, spec.modelId, { ...(spec.appConfig ? { appConfig: spec.appConfig } : {}), ...(onProgress ? { onProgress } : {}) });
  } catch (error) {
    releaseSharedModel(channel.port1);
    throw mapWebLLMError(error, spec.modelId);
  }
  return { ...spec, port: channel.port1, portKey };
}

/**
 * The session's worker died holding these ports: the engine worker stops serving them (a
 * generation running for one stops; the model stays loaded for the summaries and the next session).
 */
export async function releaseEnginePorts(keys: string[]): Promise<void> {
  if (keys.length > 0) await engine().releaseLocalModelPorts(keys);
}

/** A connected spec that was never handed to the session's worker (its session could not be stored): both ends let go. */
export function releaseLiveModel(spec: LiveModelSpec): void {
  if (spec.kind === 'webllm' && spec.port) releaseSharedModel(spec.port);
}

/** The ports a start call transfers (a MessagePort is moved to the session's worker, not copied). */
export function transferables(spec: LiveModelSpec): Transferable[] {
  return spec.kind === 'webllm' && spec.port ? [spec.port] : [];
}

/** Called when the engine worker stopped: a local model's port to it is dead. */
export function onEngineLost(listener: () => void): () => void {
  return engineClient.onCrash(listener);
}

/** The engine worker's local model and whether it is on the GPU (for the setup dialog). */
export async function localModelState(): Promise<{ modelId: string; state: 'idle' | 'loading' | 'ready' } | undefined> {
  try {
    return await engine().localModel();
  } catch {
    return undefined;
  }
}
