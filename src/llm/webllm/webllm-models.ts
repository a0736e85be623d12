/**
 * Which WebLLM models a summary can use (small chat models from the installed package's list), how
 * to serve a model's files from our own site for offline use, and what the browser has cached.
 * The list is webllm-prebuilt.json (written from the installed package by `npm run webllm:models`),
 * so the page never loads the library to list models; cache queries go to WebLLM's worker.
 */
import type { AppConfig, ModelRecord } from '@mlc-ai/web-llm';
import { connectWebLLM, spawnWebLLMWorker, type WebLLMClient } from './webllm-client.ts';
import prebuiltModelList from './webllm-prebuilt.json';

/** The installed WebLLM's prebuiltAppConfig.model_list, as extracted into webllm-prebuilt.json. */
export const PREBUILT_MODEL_LIST: readonly ModelRecord[] = prebuiltModelList as ModelRecord[];

/** Default VRAM ceiling for the picker, in MB (WebLLM's `vram_required_MB` unit). */
export const DEFAULT_MAX_VRAM_MB = 4096;

/** `ModelType.LLM` in @mlc-ai/web-llm config.d.ts; an absent `model_type` also means LLM. */
const LLM_MODEL_TYPE = 0;

/** One model the picker offers. */
export interface LocalModelInfo {
  /** WebLLM model id, e.g. 'Llama-3.2-1B-Instruct-q4f16_1-MLC'. */
  id: string;
  /** GPU memory WebLLM says the model needs, in MB. */
  vramMB: number;
  /** WebLLM marks it as able to run on limited devices (phones, integrated GPUs). */
  lowResource: boolean;
  /** Half-precision model (q4f16 / q0f16 / q3f16): needs shader-f16, see detectWebGPU. */
  f16: boolean;
  /**
   * Rough download size of the weights, in MB: the parameter count in the id times the
   * quantization's bits per weight. The real size is not in WebLLM's config; names round the
   * parameter count (Llama-3.2-1B has 1.24 B), so expect +-30 %. Absent when the id names no size.
   */
  downloadMB?: number;
  /** The context window the prebuilt config sets, in tokens (prompt plus reply must fit). */
  contextWindow?: number;
}

// Pretrained-only models in WebLLM's list: they continue text instead of following instructions.
const NOT_CHAT = /(^|-)Base(-|$)|^phi-1_5-|^phi-2-/i;
const NOT_TEXT = /embed|vision/i;

/** Bits per stored weight: the quantized bits plus the group scale (q4f16_1: 4 + 16/32). */
function bitsPerWeight(id: string): number | undefined {
  const match = /q(\d)f(16|32)/.exec(id);
  if (!match) return undefined;
  const bits = Number(match[1]);
  const scaleBits = Number(match[2]);
  if (bits === 0) return scaleBits; // q0: unquantized f16 / f32
  const groupSize = bits === 3 ? 40 : 32;
  return bits + scaleBits / groupSize;
}

/** Parameters named in the id ('-1.5B-', '-360M-', 'gemma3-1b-', 'zephyr-1_6b'); undefined for names like 'Phi-3.5-mini'. */
function parameterCount(id: string): number | undefined {
  const match = /(?:^|[-_])(\d+(?:[._]\d+)?)([BbMm])(?=[-_]|$)/.exec(id);
  if (!match) return undefined;
  const scale = match[2]!.toLowerCase() === 'b' ? 1e9 : 1e6;
  return Number(match[1]!.replace('_', '.')) * scale;
}

/** The download estimate of LocalModelInfo.downloadMB, in MB (10^6 bytes). */
export function estimateDownloadMB(id: string): number | undefined {
  const params = parameterCount(id);
  const bits = bitsPerWeight(id);
  if (params === undefined || bits === undefined) return undefined;
  return Math.round((params * bits) / 8 / 1e6);
}

/** Small chat models of a model list: no embedding or vision models, VRAM <= maxVramMB, smallest first. */
export function smallChatModels(modelList: readonly ModelRecord[], maxVramMB: number = DEFAULT_MAX_VRAM_MB): LocalModelInfo[] {
  const models: LocalModelInfo[] = [];
  for (const record of modelList) {
    const id = record.model_id;
    if ((record.model_type ?? LLM_MODEL_TYPE) !== LLM_MODEL_TYPE) continue;
    if (NOT_TEXT.test(id) || NOT_CHAT.test(id)) continue;
    const vramMB = record.vram_required_MB;
    if (vramMB === undefined || vramMB > maxVramMB) continue;
    const downloadMB = estimateDownloadMB(id);
    const contextWindow = record.overrides?.context_window_size;
    models.push({
      id,
      vramMB,
      lowResource: record.low_resource_required === true,
      f16: /q\df16/.test(id),
      ...(downloadMB !== undefined ? { downloadMB } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
    });
  }
  return models.sort((a, b) => a.vramMB - b.vramMB || a.id.localeCompare(b.id));
}

/** Small chat models of the installed @mlc-ai/web-llm (its prebuiltAppConfig). */
export function listLocalModels(maxVramMB: number = DEFAULT_MAX_VRAM_MB): LocalModelInfo[] {
  return smallChatModels(PREBUILT_MODEL_LIST, maxVramMB);
}

/** The prebuilt record of a model id, if the installed WebLLM knows it. */
export function prebuiltRecord(modelId: string): ModelRecord | undefined {
  return PREBUILT_MODEL_LIST.find((record) => record.model_id === modelId);
}

/**
 * The record with its integrity values (SRI hashes of mlc-chat-config.json, the model library and
 * the tokenizer files, which WebLLM checks before it uses them) set to refuse a mismatch: a record
 * asking only for a warning is made strict. The self-hosted copies are the same files, so the
 * hashes of the prebuilt record hold for them too. WebLLM 0.2.86 has no integrity value for the
 * weight shards (params_shard_*.bin), and its prebuilt records carry none at all.
 */
export function strictIntegrity(record: ModelRecord): ModelRecord {
  if (!record.integrity) return record;
  return { ...record, integrity: { ...record.integrity, onFailure: 'error' } };
}

/** selfHostedConfig was given a model id WebLLM does not list, or a relative URL with nothing to resolve it against. */
export class SelfHostedConfigError extends Error {
  override name = 'SelfHostedConfigError';
}

export interface SelfHostedOptions {
  /** Record to copy (VRAM, overrides, model library file name); default: the installed prebuilt record. */
  record?: ModelRecord;
  /** Page URL a relative baseUrl resolves against; default: `location.href`. */
  pageUrl?: string;
}

/**
 * An AppConfig whose one model is served from baseUrl (e.g. the site's own `models/`), so it loads
 * without Hugging Face or GitHub. Lay the files out as:
 *
 *     <baseUrl>/<modelId>/resolve/main/   the Hugging Face repository's files (mlc-chat-config.json,
 *                                         tokenizer files, tensor-cache.json, params_shard_*.bin)
 *     <baseUrl>/libs/<file>.wasm          the model library named by the prebuilt record's model_lib
 *
 * The `resolve/main/` part is not optional: WebLLM appends it to any model URL without a
 * `/resolve/<branch>/` segment. URLs are made absolute here because WebLLM resolves relative ones
 * in its worker against the origin only (losing a sub-path such as /foldlab/).
 */
export function selfHostedConfig(baseUrl: string, modelId: string, options: SelfHostedOptions = {}): AppConfig {
  const record = options.record ?? prebuiltRecord(modelId);
  if (!record) {
    throw new SelfHostedConfigError(`Unknown model "${modelId}": self-hosting needs a model WebLLM lists (its model library comes from that record). Pick one from the model list.`);
  }
  const pageUrl = options.pageUrl ?? (globalThis as { location?: { href?: string } }).location?.href;
  let base: URL;
  try {
    base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`, pageUrl);
  } catch {
    throw new SelfHostedConfigError(`Cannot resolve the model URL "${baseUrl}": give an absolute URL (https://...) or a page URL to resolve it against.`);
  }
  const libFile = record.model_lib.slice(record.model_lib.lastIndexOf('/') + 1);
  return {
    model_list: [{
      ...strictIntegrity(record),
      model_id: modelId,
      model: new URL(`${encodeURIComponent(modelId)}/resolve/main/`, base).href,
      model_lib: new URL(`libs/${libFile}`, base).href,
    }],
  };
}

/** A connection to WebLLM's worker for cache queries, closed when the caller is done with it. */
export interface CacheConnection {
  client: Pick<WebLLMClient, 'hasModelInCache' | 'deleteModelAllInfoInCache'>;
  close(): void;
}

let shared: { connection: CacheConnection; users: number } | undefined;

/** One WebLLM worker shared by the cache queries in flight, terminated when the last one settles. */
function openSharedWorker(): CacheConnection {
  if (!shared) {
    const worker = spawnWebLLMWorker();
    const client = connectWebLLM(worker);
    shared = { connection: { client, close: () => { client.close(); worker.terminate(); } }, users: 0 };
  }
  const current = shared;
  current.users++;
  return {
    client: current.connection.client,
    close: () => {
      if (--current.users > 0) return;
      current.connection.close();
      if (shared === current) shared = undefined;
    },
  };
}

/** How cache queries reach WebLLM: its worker by default; a test passes a channel to a host. */
export type CacheConnector = () => CacheConnection;

async function withCache<T>(connect: CacheConnector, query: (client: CacheConnection['client']) => Promise<T>): Promise<T> {
  const connection = connect();
  try {
    return await query(connection.client);
  } finally {
    connection.close();
  }
}

/** The Cache API scope WebLLM stores weights in (its default `cacheBackend: 'cache'`, which we keep). */
export const WEBLLM_MODEL_CACHE = 'webllm/model';

/**
 * Whether any model's weights can be in the browser's cache: false when WebLLM's weight cache does
 * not exist yet, so the Local models list needs no WebLLM worker until a model was downloaded.
 * True when it exists or when the Cache API cannot tell (ask the worker then).
 */
export async function mayHaveCachedModels(cacheStorage: Pick<CacheStorage, 'has'> | undefined = globalThis.caches): Promise<boolean> {
  if (!cacheStorage) return true;
  try {
    return await cacheStorage.has(WEBLLM_MODEL_CACHE);
  } catch {
    return true;
  }
}

/** The model's weights are all in the browser's cache. False when unknown or when storage (or the worker) cannot be reached. */
export async function isCached(modelId: string, appConfig?: AppConfig, connect: CacheConnector = openSharedWorker): Promise<boolean> {
  try {
    return await withCache(connect, (client) => client.hasModelInCache(modelId, appConfig));
  } catch {
    return false;
  }
}

/** Delete the model's weights, library and config from the browser's cache (the next load downloads again). */
export async function deleteCached(modelId: string, appConfig?: AppConfig, connect: CacheConnector = openSharedWorker): Promise<void> {
  await withCache(connect, (client) => client.deleteModelAllInfoInCache(modelId, appConfig));
}

/** Storage the site uses and may use, in bytes. */
export interface StorageInfo {
  usage?: number;
  quota?: number;
  /** quota - usage, when both are known. */
  available?: number;
}

/** `navigator.storage.estimate()`; undefined where the browser lacks it (or it fails). */
export async function storageEstimate(nav: { storage?: { estimate?(): Promise<StorageEstimate> } } | undefined = globalThis.navigator): Promise<StorageInfo | undefined> {
  const storage = nav?.storage;
  if (!storage?.estimate) return undefined;
  try {
    const { usage, quota } = await storage.estimate();
    return {
      ...(usage !== undefined ? { usage } : {}),
      ...(quota !== undefined ? { quota } : {}),
      ...(usage !== undefined && quota !== undefined ? { available: Math.max(0, quota - usage) } : {}),
    };
  } catch {
    return undefined;
  }
}
