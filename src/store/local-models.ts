/**
 * The local WebLLM models as Settings > Models and a new live session offer them: whether WebGPU
 * is there, the small models that fit, which are in the browser's cache (and the storage used),
 * downloading one (with progress and Cancel) and deleting one, and whether a live session can use
 * the chosen one now. Components call these; they never reach WebLLM themselves.
 */
import { detectWebGPU, type WebGPUStatus } from '../llm/webllm/webgpu.ts';
import { createWebLLMSummarizer, type WebLLMSummarizer, type WebLLMSummarizerOptions } from '../llm/webllm/webllm.ts';
import { deleteCached, isCached, listLocalModels, mayHaveCachedModels, selfHostedConfig, storageEstimate, type LocalModelInfo, type StorageInfo } from '../llm/webllm/webllm-models.ts';
import { localModelState } from './live-local-model.ts';
import { useAppStore } from './store.ts';

export { detectWebGPU, listLocalModels, type LocalModelInfo, type StorageInfo, type WebGPUStatus };

/** Download progress of a model: 0..1, WebLLM's text, and seconds since the download started. */
export type DownloadProgress = (report: { progress: number; text: string; timeElapsed: number }) => void;

/** Where the model's files come from: WebLLM's hosts, or the self-hosted base URL of Settings (throws SelfHostedConfigError for one that cannot work). */
function appConfigFor(modelId: string, baseUrl: string) {
  return baseUrl.trim() ? selfHostedConfig(baseUrl.trim(), modelId) : undefined;
}

function safeConfig(modelId: string, baseUrl: string) {
  try {
    return appConfigFor(modelId, baseUrl);
  } catch {
    return undefined;
  }
}

/** Which of `models` are in the browser's cache, and the storage the site uses. */
export async function localModelCache(models: readonly LocalModelInfo[], baseUrl: string, cached = isCached): Promise<{ cached: Record<string, boolean>; storage: StorageInfo | undefined }> {
  // Before the first download there is no weight cache: answer without starting WebLLM's worker.
  const any = await mayHaveCachedModels();
  const entries = await Promise.all(models.map(async (m) => [m.id, any && (await cached(m.id, safeConfig(m.id, baseUrl)))] as const));
  return { cached: Object.fromEntries(entries), storage: await storageEstimate() };
}

/**
 * Downloads `modelId` into the browser's cache and makes it the local model of Settings. A reload to
 * a new version would cut the download off, so the update prompt waits for it. Aborting `signal`
 * cancels it; a failed or cancelled download leaves the chosen model as it was.
 */
export async function downloadLocalModel(
  modelId: string, baseUrl: string, onProgress: DownloadProgress, signal: AbortSignal,
  create: (options: WebLLMSummarizerOptions) => WebLLMSummarizer = createWebLLMSummarizer,
): Promise<void> {
  const appConfig = appConfigFor(modelId, baseUrl);
  const summarizer = create({ modelId, ...(appConfig ? { appConfig } : {}), onProgress });
  const endActivity = useAppStore.getState().beginActivity(`Downloading the model ${modelId}`);
  try {
    await summarizer.load(signal);
    await summarizer.unload();
    useAppStore.getState().setLocalModel(modelId);
  } finally {
    endActivity();
  }
}

/** Deletes the model's files from the browser's cache (the next use downloads them again). */
export function deleteLocalModel(modelId: string, baseUrl: string): Promise<void> {
  return deleteCached(modelId, safeConfig(modelId, baseUrl));
}

/** What the live session's "Local model (WebLLM)" choice says; `usable` enables it. */
export interface LocalModelStatus {
  modelId: string;
  usable: boolean;
  /** One sentence: why it cannot be used, or what Start will do. */
  note: string;
}

/** What `localModelStatus` asks of the browser and the engine worker (the real ones unless a test passes its own). */
export interface LocalModelProbes {
  gpu: () => Promise<WebGPUStatus>;
  held: typeof localModelState;
  cached: (modelId: string, appConfig: ReturnType<typeof appConfigFor>) => Promise<boolean>;
}

const BROWSER_PROBES: LocalModelProbes = {
  gpu: () => detectWebGPU(),
  held: localModelState,
  cached: async (modelId, appConfig) => (await mayHaveCachedModels()) && (await isCached(modelId, appConfig)),
};

/** Whether a live session can run on `modelId` now: WebGPU, shader-f16 for an f16 model, on the GPU already or downloaded. */
export async function localModelStatus(modelId: string, baseUrl: string, probes: LocalModelProbes = BROWSER_PROBES): Promise<LocalModelStatus> {
  const gpu = await probes.gpu();
  if (!gpu.available) return { modelId, usable: false, note: `WebGPU is missing, so the local model cannot run in this browser: ${gpu.reason ?? 'no adapter'}.` };
  const info = listLocalModels(Number.POSITIVE_INFINITY).find((model) => model.id === modelId);
  if (info?.f16 && !gpu.shaderF16) return { modelId, usable: false, note: `${modelId} needs shader-f16, which this GPU lacks: choose an f32 (q4f32) model in Settings > Models.` };
  const held = await probes.held();
  if (held?.modelId === modelId && held.state === 'ready') return { modelId, usable: true, note: 'Loaded on the GPU; the session shares it with the summaries (no second copy).' };
  let appConfig: ReturnType<typeof appConfigFor>;
  try {
    appConfig = appConfigFor(modelId, baseUrl);
  } catch (error) {
    return { modelId, usable: false, note: error instanceof Error ? error.message : String(error) };
  }
  if (!(await probes.cached(modelId, appConfig))) return { modelId, usable: false, note: `${modelId} is not downloaded: download it in Settings > Models first.` };
  const vram = info ? ` (about ${info.vramMB.toLocaleString('en-US')} MB of GPU memory)` : '';
  return { modelId, usable: true, note: `Downloaded, not loaded yet: Start loads it onto the GPU from the browser's cache${vram}, shared with the summaries.` };
}
