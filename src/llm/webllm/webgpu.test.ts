// detectWebGPU against fake navigators: no WebGPU, no adapter, a failing request, with and without shader-f16.
import { describe, expect, it } from 'vitest';
import { detectWebGPU, NO_ADAPTER_REASON, NO_F16_REASON, NO_WEBGPU_REASON, type GPUAdapterLike, type GPUNavigatorLike } from './webgpu.ts';

function adapter(features: string[], extra: Partial<GPUAdapterLike> = {}): GPUAdapterLike {
  return {
    features: new Set(features),
    limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 },
    ...extra,
  };
}

function navigatorWith(result: GPUAdapterLike | null | Error, seen: unknown[] = []): GPUNavigatorLike {
  return {
    gpu: {
      requestAdapter: async (options) => {
        seen.push(options);
        if (result instanceof Error) throw result;
        return result;
      },
    },
  };
}

describe('detectWebGPU', () => {
  it('reports a missing navigator.gpu', async () => {
    expect(await detectWebGPU({})).toEqual({ available: false, reason: NO_WEBGPU_REASON, shaderF16: false });
    expect(NO_WEBGPU_REASON).toBe('WebGPU is not available in this browser (navigator.gpu is missing)');
  });

  it('reports a missing navigator (and Node has no WebGPU)', async () => {
    expect((await detectWebGPU(undefined)).available).toBe(false);
    expect(await detectWebGPU()).toMatchObject({ available: false, reason: NO_WEBGPU_REASON });
  });

  it('reports no adapter', async () => {
    const status = await detectWebGPU(navigatorWith(null));
    expect(status).toEqual({ available: false, reason: NO_ADAPTER_REASON, shaderF16: false });
    expect(status.reason).toContain('no adapter');
  });

  it('never throws when the adapter request fails', async () => {
    const status = await detectWebGPU(navigatorWith(new Error('GPU process crashed')));
    expect(status.available).toBe(false);
    expect(status.reason).toContain('GPU process crashed');
  });

  it('asks for the adapter the way WebLLM does', async () => {
    const seen: unknown[] = [];
    await detectWebGPU(navigatorWith(adapter([]), seen));
    expect(seen).toEqual([{ powerPreference: 'high-performance' }]);
  });

  it('reports a full adapter with shader-f16 and no reason', async () => {
    const status = await detectWebGPU(navigatorWith(adapter(['shader-f16', 'timestamp-query'], { info: { vendor: 'nvidia', architecture: 'ampere' } })));
    expect(status).toEqual({
      available: true,
      adapter: { vendor: 'nvidia', architecture: 'ampere' },
      shaderF16: true,
      maxBufferSize: 2 ** 31,
      maxStorageBufferBindingSize: 2 ** 30,
    });
  });

  it('says only f32 models run without shader-f16', async () => {
    const status = await detectWebGPU(navigatorWith(adapter([], { info: { vendor: 'intel', architecture: '' } })));
    expect(status.available).toBe(true);
    expect(status.shaderF16).toBe(false);
    expect(status.reason).toBe(NO_F16_REASON);
    expect(status.reason).toBe('shader-f16 not supported: only f32 models will run');
  });

  it('falls back to requestAdapterInfo (older Chrome) and survives its failure', async () => {
    const old = await detectWebGPU(navigatorWith(adapter(['shader-f16'], { requestAdapterInfo: async () => ({ vendor: 'amd', architecture: 'rdna-3' }) })));
    expect(old.adapter).toEqual({ vendor: 'amd', architecture: 'rdna-3' });
    const failing = await detectWebGPU(navigatorWith(adapter(['shader-f16'], { requestAdapterInfo: async () => { throw new Error('denied'); } })));
    expect(failing.available).toBe(true);
    expect(failing.adapter).toBeUndefined();
  });
});
