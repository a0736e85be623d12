// The model list from the installed WebLLM's prebuiltAppConfig, the download estimate, the
// self-hosted AppConfig, and the cache / storage wrappers (in Node: no Cache API, fake navigator).
import { deleteModelAllInfoInCache, hasModelInCache, ModelType, prebuiltAppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { connectWebLLM } from './webllm-client.ts';
import { serveWebLLM } from './webllm-host.ts';
import {
  DEFAULT_MAX_VRAM_MB, deleteCached, estimateDownloadMB, isCached, listLocalModels, mayHaveCachedModels, PREBUILT_MODEL_LIST, prebuiltRecord,
  SelfHostedConfigError, selfHostedConfig, smallChatModels, storageEstimate, type CacheConnector,
} from './webllm-models.ts';

/** The cache queries answered by the real library over a MessageChannel, as WebLLM's worker would. */
function libraryConnector(): { connect: CacheConnector; opened: () => number } {
  let opened = 0;
  return {
    opened: () => opened,
    connect: () => {
      opened++;
      const channel = new MessageChannel();
      serveWebLLM(channel.port2, {
        createEngine: () => Promise.reject(new Error('not used')),
        hasModelInCache, deleteModelAllInfoInCache,
      });
      const client = connectWebLLM(channel.port1);
      return { client, close: () => { client.close(); channel.port1.close(); channel.port2.close(); } };
    },
  };
}

describe('webllm-prebuilt.json', () => {
  it('is the installed package\'s model list (after an upgrade: npm run webllm:models)', () => {
    expect(JSON.parse(JSON.stringify(PREBUILT_MODEL_LIST))).toEqual(JSON.parse(JSON.stringify(prebuiltAppConfig.model_list)));
  });
});

describe('listLocalModels (installed prebuiltAppConfig)', () => {
  const models = listLocalModels();
  const byId = new Map(prebuiltAppConfig.model_list.map((record) => [record.model_id, record]));

  it('is non-empty, sorted by VRAM, and all within the default limit', () => {
    expect(models.length).toBeGreaterThan(10);
    for (const model of models) expect(model.vramMB).toBeLessThanOrEqual(DEFAULT_MAX_VRAM_MB);
    for (let i = 1; i < models.length; i++) expect(models[i]!.vramMB).toBeGreaterThanOrEqual(models[i - 1]!.vramMB);
  });

  it('holds only chat LLMs of the installed list, with their own numbers', () => {
    for (const model of models) {
      const record = byId.get(model.id);
      expect(record, model.id).toBeDefined();
      expect(record!.model_type ?? ModelType.LLM).toBe(ModelType.LLM);
      expect(model.id).not.toMatch(/embed|vision|-Base-/i);
      expect(model.vramMB).toBe(record!.vram_required_MB);
      expect(model.lowResource).toBe(record!.low_resource_required === true);
    }
    // The installed list has embedding and vision models: they are filtered, not absent.
    expect(prebuiltAppConfig.model_list.some((r) => r.model_type === ModelType.embedding && (r.vram_required_MB ?? 0) <= DEFAULT_MAX_VRAM_MB)).toBe(true);
  });

  it('flags f16 models by their id', () => {
    for (const model of models) expect(model.f16).toBe(/q[0-9]f16/.test(model.id));
    expect(models.some((m) => m.f16)).toBe(true);
    expect(models.some((m) => !m.f16)).toBe(true);
  });

  it('respects a lower limit', () => {
    const tiny = listLocalModels(1000);
    expect(tiny.length).toBeGreaterThan(0);
    expect(tiny.length).toBeLessThan(models.length);
    for (const model of tiny) expect(model.vramMB).toBeLessThanOrEqual(1000);
  });
});

describe('smallChatModels', () => {
  const record = (model_id: string, vram: number | undefined, extra: Partial<ModelRecord> = {}): ModelRecord => ({
    model: `https://huggingface.co/mlc-ai/${model_id}`, model_id, model_lib: `https://libs.example/${model_id}.wasm`,
    ...(vram !== undefined ? { vram_required_MB: vram } : {}), ...extra,
  });

  it('drops embeddings, vision, base models, unknown VRAM and models over the limit; sorts by VRAM then id', () => {
    const list = [
      record('B-2B-q4f32_1-MLC', 900),
      record('A-1B-q4f16_1-MLC', 500, { low_resource_required: true, overrides: { context_window_size: 4096 } }),
      record('A-0.5B-q4f16_1-MLC', 900),
      record('embed-q0f32-MLC', 100, { model_type: ModelType.embedding }),
      record('X-vision-q4f16_1-MLC', 100, { model_type: ModelType.VLM }),
      record('Ministral-3-3B-Base-2512-q4f16_1-MLC', 100),
      record('NoVram-q4f16_1-MLC', undefined),
      record('Big-70B-q3f16_1-MLC', 30_000),
    ];
    expect(smallChatModels(list).map((m) => m.id)).toEqual(['A-1B-q4f16_1-MLC', 'A-0.5B-q4f16_1-MLC', 'B-2B-q4f32_1-MLC']);
    expect(smallChatModels(list)[0]).toEqual({ id: 'A-1B-q4f16_1-MLC', vramMB: 500, lowResource: true, f16: true, downloadMB: 563, contextWindow: 4096 });
    expect(smallChatModels(list, 100_000).map((m) => m.id)).toContain('Big-70B-q3f16_1-MLC');
  });
});

describe('estimateDownloadMB', () => {
  it('multiplies the named parameter count by the bits per weight', () => {
    expect(estimateDownloadMB('SmolLM2-360M-Instruct-q4f16_1-MLC')).toBe(203); // 360e6 * 4.5 / 8
    expect(estimateDownloadMB('Llama-3.2-1B-Instruct-q4f32_1-MLC')).toBe(625); // 1e9 * 5 / 8
    expect(estimateDownloadMB('Qwen3-0.6B-q0f16-MLC')).toBe(1200); // 0.6e9 * 16 / 8
    expect(estimateDownloadMB('gemma3-1b-it-q4f16_1-MLC')).toBe(563);
    expect(estimateDownloadMB('stablelm-2-zephyr-1_6b-q4f16_1-MLC-1k')).toBe(900);
  });

  it('gives nothing when the id names no size', () => {
    expect(estimateDownloadMB('Phi-3.5-mini-instruct-q4f16_1-MLC')).toBeUndefined();
    expect(estimateDownloadMB('gemma-4-E2B-it-q4f16_1-MLC')).toBeUndefined();
  });

  it('stays below the VRAM WebLLM asks for, for every listed model it estimates', () => {
    for (const model of listLocalModels()) if (model.downloadMB !== undefined) expect(model.downloadMB, model.id).toBeLessThan(model.vramMB * 1.2);
  });
});

describe('selfHostedConfig', () => {
  const id = 'SmolLM2-360M-Instruct-q4f16_1-MLC';

  it('points the model and its library at the site, keeping the prebuilt record', () => {
    const config = selfHostedConfig('https://example.org/foldlab/models', id);
    const prebuilt = prebuiltRecord(id)!;
    expect(config.model_list).toHaveLength(1);
    const record = config.model_list[0]!;
    expect(record.model_id).toBe(id);
    expect(record.model).toBe(`https://example.org/foldlab/models/${id}/resolve/main/`);
    expect(record.model_lib).toBe('https://example.org/foldlab/models/libs/SmolLM2-360M-Instruct-q4f16_1_cs1k-webgpu.wasm');
    expect(prebuilt.model_lib.endsWith('/SmolLM2-360M-Instruct-q4f16_1_cs1k-webgpu.wasm')).toBe(true);
    expect(record.vram_required_MB).toBe(prebuilt.vram_required_MB);
    expect(record.overrides).toEqual(prebuilt.overrides);
    expect(record.required_features).toEqual(prebuilt.required_features);
    expect(config.cacheBackend).toBeUndefined();
  });

  it('resolves a relative base against the page, keeping the sub-path', () => {
    const config = selfHostedConfig('models/', id, { pageUrl: 'https://user.github.io/foldlab/index.html' });
    expect(config.model_list[0]!.model).toBe(`https://user.github.io/foldlab/models/${id}/resolve/main/`);
  });

  it('accepts a record for a model WebLLM does not list', () => {
    const record: ModelRecord = { model: 'x', model_id: 'Mine-q4f16_1-MLC', model_lib: 'https://a.b/libs/mine-webgpu.wasm', vram_required_MB: 100 };
    const config = selfHostedConfig('https://site.test/m/', 'Mine-q4f16_1-MLC', { record });
    expect(config.model_list[0]).toEqual({ ...record, model: 'https://site.test/m/Mine-q4f16_1-MLC/resolve/main/', model_lib: 'https://site.test/m/libs/mine-webgpu.wasm' });
  });

  it('names what is wrong: unknown model, relative URL without a page', () => {
    expect(() => selfHostedConfig('https://site.test/m/', 'No-Such-Model')).toThrow(SelfHostedConfigError);
    expect(() => selfHostedConfig('models/', id)).toThrow(/absolute URL/);
  });
});

describe('cache and storage wrappers', () => {
  it('isCached is false, not an exception, where storage cannot be read (Node has no Cache API) or no worker starts', async () => {
    const { connect, opened } = libraryConnector();
    expect(await isCached('SmolLM2-360M-Instruct-q4f16_1-MLC', undefined, connect)).toBe(false);
    expect(await isCached('No-Such-Model', undefined, connect)).toBe(false);
    expect(opened()).toBe(2);
    expect(await isCached('SmolLM2-360M-Instruct-q4f16_1-MLC')).toBe(false); // Node has no Worker
  });

  it('isCached reads the answer WebLLM gives', async () => {
    const channel = new MessageChannel();
    serveWebLLM(channel.port2, {
      createEngine: () => Promise.reject(new Error('not used')),
      hasModelInCache: async (id) => id === 'Cached-q4f16_1-MLC',
      deleteModelAllInfoInCache: async () => undefined,
    });
    const client = connectWebLLM(channel.port1);
    const connect: CacheConnector = () => ({ client, close: () => undefined });
    expect(await isCached('Cached-q4f16_1-MLC', undefined, connect)).toBe(true);
    expect(await isCached('Other-q4f16_1-MLC', undefined, connect)).toBe(false);
    channel.port1.close();
  });

  it('deleteCached reports an unknown model, with WebLLM\'s message crossing the worker boundary', async () => {
    await expect(deleteCached('No-Such-Model', undefined, libraryConnector().connect)).rejects.toThrow(/Cannot find model record/);
  });

  it('storageEstimate reads navigator.storage.estimate()', async () => {
    expect(await storageEstimate({ storage: { estimate: async () => ({ usage: 100, quota: 1000 }) } })).toEqual({ usage: 100, quota: 1000, available: 900 });
    expect(await storageEstimate({ storage: { estimate: async () => ({ quota: 1000 }) } })).toEqual({ quota: 1000 });
    expect(await storageEstimate({})).toBeUndefined();
    expect(await storageEstimate(undefined)).toBeUndefined();
    expect(await storageEstimate({ storage: { estimate: async () => { throw new Error('denied'); } } })).toBeUndefined();
  });
});

describe('mayHaveCachedModels', () => {
  it('is false only when WebLLM\'s weight cache does not exist', async () => {
    const asked: string[] = [];
    const storage = (names: string[]) => ({ has: async (name: string) => { asked.push(name); return names.includes(name); } });
    expect(await mayHaveCachedModels(storage([]))).toBe(false);
    expect(await mayHaveCachedModels(storage(['foldlab-webllm']))).toBe(false);
    expect(await mayHaveCachedModels(storage(['webllm/model']))).toBe(true);
    expect(asked.every((name) => name === 'webllm/model')).toBe(true);
  });

  it('asks the worker when the Cache API cannot tell', async () => {
    expect(await mayHaveCachedModels(undefined)).toBe(true);
    expect(await mayHaveCachedModels({ has: () => Promise.reject(new DOMException('denied', 'SecurityError')) })).toBe(true);
  });
});
