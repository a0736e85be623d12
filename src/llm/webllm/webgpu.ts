/**
 * WebGPU detection for local models: whether WebLLM can run in this browser, on which adapter, and
 * whether f16 models can (shader-f16). It never throws, so the model picker can show the reason.
 */

/** What detectWebGPU found. */
export interface WebGPUStatus {
  /** A GPU adapter was found: at least the f32 models can run. */
  available: boolean;
  /** Why local models cannot run, or what is limited (only f32 models); absent when nothing is missing. */
  reason?: string;
  /** Vendor and architecture as the browser reports them (often empty strings for privacy). */
  adapter?: { vendor: string; architecture: string };
  /** The adapter offers shader-f16, which q4f16 / q0f16 models need. */
  shaderF16: boolean;
  /** Largest single GPU buffer the adapter allows, in bytes. */
  maxBufferSize?: number;
  /** Largest storage-buffer binding, in bytes (WebLLM compares a model's buffer_size_required_bytes to it). */
  maxStorageBufferBindingSize?: number;
}

interface AdapterInfoLike {
  vendor?: string;
  architecture?: string;
}

/** The part of a GPUAdapter this reads (a fake one in tests). */
export interface GPUAdapterLike {
  features: { has(name: string): boolean };
  limits: { maxBufferSize?: number; maxStorageBufferBindingSize?: number };
  info?: AdapterInfoLike;
  /** Chrome before 131 had this instead of `info`. */
  requestAdapterInfo?(): Promise<AdapterInfoLike>;
}

/** The part of `navigator` this reads (a fake one in tests). */
export interface GPUNavigatorLike {
  gpu?: { requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<GPUAdapterLike | null> };
}

export const NO_WEBGPU_REASON = 'WebGPU is not available in this browser (navigator.gpu is missing)';
export const NO_ADAPTER_REASON = 'WebGPU is present but returned no adapter: the GPU may be blocklisted, disabled, or missing';
export const NO_F16_REASON = 'shader-f16 not supported: only f32 models will run';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Ask the browser for a GPU adapter the way WebLLM does (powerPreference 'high-performance'), so
 * the answer matches what loading a model will find.
 */
export async function detectWebGPU(nav: GPUNavigatorLike | undefined = globalThis.navigator as GPUNavigatorLike | undefined): Promise<WebGPUStatus> {
  const gpu = nav?.gpu;
  if (!gpu) return { available: false, reason: NO_WEBGPU_REASON, shaderF16: false };
  let adapter: GPUAdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return { available: false, reason: `WebGPU adapter request failed: ${message(error)}`, shaderF16: false };
  }
  if (!adapter) return { available: false, reason: NO_ADAPTER_REASON, shaderF16: false };

  let info: AdapterInfoLike | undefined = adapter.info;
  if (!info && adapter.requestAdapterInfo) {
    // Adapter info is decoration: a failure here must not hide a usable GPU.
    info = await adapter.requestAdapterInfo().catch(() => undefined);
  }
  let shaderF16: boolean;
  try {
    shaderF16 = adapter.features.has('shader-f16');
  } catch {
    shaderF16 = false;
  }
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  return {
    available: true,
    ...(shaderF16 ? {} : { reason: NO_F16_REASON }),
    ...(info ? { adapter: { vendor: info.vendor ?? '', architecture: info.architecture ?? '' } } : {}),
    shaderF16,
    ...(typeof maxBufferSize === 'number' ? { maxBufferSize } : {}),
    ...(typeof maxStorageBufferBindingSize === 'number' ? { maxStorageBufferBindingSize } : {}),
  };
}
