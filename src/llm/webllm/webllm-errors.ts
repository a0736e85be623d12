/**
 * WebLLM's failures in words a user can act on: its errors (Error objects, or the strings its worker
 * sends) are matched by name and text and become a `WebLLMError` with a kind, or a
 * `WebLLMContextOverflowError` that callers treat like any provider's overflow.
 */
import { SummarizerError } from '../../core/compaction/summarizer.ts';

export type WebLLMErrorKind =
  | 'webgpu' | 'shader-f16' | 'gpu-memory' | 'gpu-limits' | 'download' | 'storage'
  | 'unknown-model' | 'not-loaded' | 'unloaded' | 'worker' | 'integrity' | 'other';

/** A WebLLM failure, in words a user can act on; `kind` says which, `cause` holds WebLLM's own error. */
export class WebLLMError extends SummarizerError {
  override name = 'WebLLMError';
  constructor(readonly kind: WebLLMErrorKind, message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * The prompt does not fit the model's context window. Named 'ContextOverflowError' so callers
 * treat it like any provider's overflow (summarize less at once, or pick a larger window).
 */
export class WebLLMContextOverflowError extends SummarizerError {
  override name = 'ContextOverflowError';
  constructor(readonly modelId: string, readonly promptTokens?: number, readonly contextWindow?: number, options?: ErrorOptions) {
    super(
      promptTokens !== undefined && contextWindow !== undefined
        ? `The prompt (${promptTokens} tokens) does not fit ${modelId}'s context window of ${contextWindow} tokens: summarize fewer entries at once, or pick a model with a larger window.`
        : `The prompt does not fit ${modelId}'s context window: summarize fewer entries at once, or pick a model with a larger window.`,
      options,
    );
  }
}

// WebLLM's error texts (lib/index.js of @mlc-ai/web-llm 0.2.86). Errors from its worker arrive as
// strings ("DeviceLostError: The WebGPU device was lost ..."), so names and texts are matched, not classes.
const INTEGRITY = /IntegrityError|Integrity verification failed|Invalid SRI hash format/i;
const OVERFLOW = /ContextWindowSizeExceededError|Prompt tokens exceed context window size/i;
const NO_WEBGPU = /WebGPUNotAvailableError|WebGPUNotFoundError|WebGPU is not supported|Cannot find WebGPU|Unable to find a compatible GPU|navigator\.gpu/i;
const NO_F16 = /ShaderF16SupportError|requires WebGPU extension shader-f16/i;
const GPU_MEMORY = /DeviceLostError|device was lost|out of memory|\bOOM\b|GPUOutOfMemoryError/i;
const GPU_LIMITS = /Cannot initialize runtime because of requested max\w+ exceeds limit|requires feature \S+, which is not yet supported/i;
const STORAGE = /QuotaExceededError|quota (has been )?exceeded|not enough (storage|space)/i;
const DOWNLOAD = /Failed to fetch|NetworkError|network error|Load failed|Cannot fetch|Failed to store|Unable to fetch|Network response was not ok|Request failed|ERR_INTERNET_DISCONNECTED|ERR_NETWORK|network connection was lost|ERR_CONNECTION/i;
const UNKNOWN_MODEL = /ModelNotFoundError|Cannot find model record in appConfig/i;
const NOT_LOADED = /ModelNotLoadedError|EngineNotLoadedError|WorkerEngineModelNotLoadedError|Model not loaded before/i;

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message.startsWith(error.name) ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}

/** The first line of WebLLM's text, for the end of our message (its full text stays in `cause`). */
function detail(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

/** WebLLM's error (an Error, or the string its worker sends) as WebLLMError / WebLLMContextOverflowError. */
export function mapWebLLMError(error: unknown, modelId: string): Error {
  if (error instanceof WebLLMError || error instanceof WebLLMContextOverflowError) return error;
  // Mapped already on the other side of a channel (a shared model's port, webllm-shared.ts): its words are kept.
  if (error instanceof Error && error.name === 'WebLLMError') return new WebLLMError('other', error.message, { cause: error });
  const text = errorText(error);
  const cause = { cause: error };
  if (OVERFLOW.test(text)) {
    const prompt = /number of prompt tokens:\s*(\d+)/i.exec(text)?.[1];
    const window = /context window size:\s*(\d+)/i.exec(text)?.[1];
    return new WebLLMContextOverflowError(modelId, prompt ? Number(prompt) : undefined, window ? Number(window) : undefined, cause);
  }
  if (INTEGRITY.test(text)) return integrityError(text, modelId, cause);
  if (NO_F16.test(text)) {
    return new WebLLMError('shader-f16', `${modelId} needs the WebGPU feature shader-f16, which this browser or GPU lacks: pick an f32 model (q4f32) instead.`, cause);
  }
  if (NO_WEBGPU.test(text)) {
    const why = /compatible GPU/i.test(text) ? 'no compatible GPU adapter was found' : 'this browser does not provide it, or it is turned off';
    return new WebLLMError('webgpu', `Local models need WebGPU: ${why}. Use a recent Chrome or Edge with WebGPU enabled, or the offline summarizer.`, cause);
  }
  if (GPU_MEMORY.test(text)) {
    return new WebLLMError('gpu-memory', `The GPU ran out of memory running ${modelId} (the WebGPU device was lost). Close other GPU-heavy tabs or pick a smaller model (fewer parameters, a -1k variant), then load it again.`, cause);
  }
  if (GPU_LIMITS.test(text)) {
    return new WebLLMError('gpu-limits', `This GPU's limits are too small for ${modelId}: pick a smaller model. (${detail(text)})`, cause);
  }
  if (STORAGE.test(text)) {
    return new WebLLMError('storage', `Not enough browser storage to download ${modelId}: delete cached models or free disk space, then press Download again.`, cause);
  }
  if (DOWNLOAD.test(text)) {
    return new WebLLMError('download', `Downloading ${modelId} failed: the download was interrupted; press Download again to resume — files already cached are kept. (${detail(text)})`, cause);
  }
  if (UNKNOWN_MODEL.test(text)) {
    return new WebLLMError('unknown-model', `Unknown local model "${modelId}": pick one from the model list.`, cause);
  }
  if (NOT_LOADED.test(text)) {
    return new WebLLMError('not-loaded', `${modelId} is no longer loaded (the GPU may have been reset): load it again.`, cause);
  }
  return new WebLLMError('other', `The local model ${modelId} failed: ${detail(text)}`, cause);
}

/**
 * A model file whose SHA hash differs from the integrity value its model record carries (WebLLM
 * checks mlc-chat-config.json, the model library and the tokenizer files before using them), or a
 * record whose value is not a valid SRI string. Nothing of the model is used.
 */
function integrityError(text: string, modelId: string, cause: ErrorOptions): WebLLMError {
  const invalid = /Invalid SRI hash format: "([^"]*)"/.exec(text);
  if (invalid) return new WebLLMError('integrity', `The model record of ${modelId} carries an integrity value that is not a SHA-256/384/512 SRI hash ("${invalid[1]}"): fix the record; the model was not loaded.`, cause);
  const url = /Integrity verification failed for (\S+)/.exec(text)?.[1];
  const expected = /Expected: (\S+)/.exec(text)?.[1];
  const actual = /Actual: (\S+)/.exec(text)?.[1];
  const file = url ? decodeURIComponent(url.slice(url.lastIndexOf('/') + 1)) || url : 'a model file';
  const hashes = expected && actual ? ` (expected ${expected}, got ${actual})` : '';
  return new WebLLMError('integrity', `${file} of ${modelId} does not match the integrity value its model record carries${hashes}: it was changed on the server or damaged in the browser's cache, so the model was not loaded. Delete the model's cached files and download it again${url ? `; the file came from ${url}` : ''}.`, cause);
}
