// The local models of Settings and the live session's local-model choice: a download makes the model
// the chosen one only when it finished, and the choice says exactly why it cannot be used.
import { afterEach, describe, expect, it } from 'vitest';
import type { WebLLMSummarizer, WebLLMSummarizerOptions } from '../llm/webllm/webllm.ts';
import { downloadLocalModel, listLocalModels, localModelStatus, type LocalModelProbes } from './local-models.ts';
import { useAppStore } from './store.ts';

const f16 = listLocalModels(Number.POSITIVE_INFINITY).find((model) => model.f16)!;
const f32 = listLocalModels(Number.POSITIVE_INFINITY).find((model) => !model.f16)!;

function fakeSummarizer(load: (signal?: AbortSignal) => Promise<void>, made: WebLLMSummarizerOptions[]) {
  return (options: WebLLMSummarizerOptions) => {
    made.push(options);
    return { load, unload: async () => undefined } as unknown as WebLLMSummarizer;
  };
}

afterEach(() => useAppStore.getState().setLocalModel(undefined));

describe('downloadLocalModel', () => {
  it('loads the model once, holds off the update prompt meanwhile, and then makes it the chosen one', async () => {
    const made: WebLLMSummarizerOptions[] = [];
    const seen: string[][] = [];
    await downloadLocalModel(f32.id, '', () => undefined, new AbortController().signal, fakeSummarizer(async () => {
      seen.push(Object.values(useAppStore.getState().activities));
    }, made));
    expect(made.map((options) => [options.modelId, options.appConfig])).toEqual([[f32.id, undefined]]);
    expect(seen).toEqual([[`Downloading the model ${f32.id}`]]);
    expect(useAppStore.getState().activities).toEqual({});
    expect(useAppStore.getState().localModelId).toBe(f32.id);
  });

  it('leaves the chosen model as it was when the download fails or is cancelled, and ends the activity', async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    const load = async (signal?: AbortSignal) => {
      if (signal?.aborted) throw new DOMException('cancelled', 'AbortError');
    };
    await expect(downloadLocalModel(f32.id, '', () => undefined, cancelled.signal, fakeSummarizer(load, []))).rejects.toThrow('cancelled');
    expect(useAppStore.getState().localModelId).toBeUndefined();
    expect(useAppStore.getState().activities).toEqual({});
  });

  it('fetches from the self-hosted base URL of Settings, and refuses one that cannot work before starting', async () => {
    const made: WebLLMSummarizerOptions[] = [];
    await downloadLocalModel(f32.id, ' https://example.org/models/ ', () => undefined, new AbortController().signal, fakeSummarizer(async () => undefined, made));
    expect(JSON.stringify(made[0]?.appConfig)).toContain('https://example.org/models/');
    await expect(downloadLocalModel(f32.id, 'not a url', () => undefined, new AbortController().signal, fakeSummarizer(async () => undefined, made))).rejects.toThrow();
    expect(made).toHaveLength(1);
  });
});

describe('localModelStatus', () => {
  const gpu = { available: true, shaderF16: true };
  const probes = (change: Partial<LocalModelProbes> = {}): LocalModelProbes => ({ gpu: async () => gpu, held: async () => undefined, cached: async () => true, ...change });

  it('says why the model cannot run: no WebGPU (as in Node), no shader-f16 for an f16 model, not downloaded', async () => {
    expect((await localModelStatus(f32.id, '')).note).toMatch(/^WebGPU is missing, so the local model cannot run in this browser: WebGPU is not available/);
    const noF16 = await localModelStatus(f16.id, '', probes({ gpu: async () => ({ available: true, shaderF16: false }) }));
    expect(noF16).toEqual({ modelId: f16.id, usable: false, note: `${f16.id} needs shader-f16, which this GPU lacks: choose an f32 (q4f32) model in Settings > Models.` });
    expect(await localModelStatus(f32.id, '', probes({ cached: async () => false }))).toEqual({ modelId: f32.id, usable: false, note: `${f32.id} is not downloaded: download it in Settings > Models first.` });
  });

  it('is usable when the engine holds it on the GPU, or when it is downloaded', async () => {
    const held = await localModelStatus(f32.id, '', probes({ held: async () => ({ modelId: f32.id, state: 'ready' }), cached: async () => false }));
    expect(held).toEqual({ modelId: f32.id, usable: true, note: 'Loaded on the GPU; the session shares it with the summaries (no second copy).' });
    const downloaded = await localModelStatus(f32.id, '', probes());
    expect(downloaded.usable).toBe(true);
    expect(downloaded.note).toBe(`Downloaded, not loaded yet: Start loads it onto the GPU from the browser's cache (about ${f32.vramMB.toLocaleString('en-US')} MB of GPU memory), shared with the summaries.`);
  });

  it('names a self-hosted base URL that cannot work', async () => {
    const status = await localModelStatus(f32.id, 'not a url', probes());
    expect(status.usable).toBe(false);
    expect(status.note).not.toBe('');
  });
});
