// Model files are checked against the integrity values their model record carries: the installed
// WebLLM engine itself loads a self-hosted model from a local server (its config and library go
// through WebLLM's own fetch, cache and SRI check; IndexedDB from fake-indexeddb as its cache),
// and a file that does not match is refused, even where the record only asked for a warning.
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MLCEngine, prebuiltAppConfig, type AppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapWebLLMError, WebLLMError } from './webllm-errors.ts';
import { prebuiltRecord, selfHostedConfig, strictIntegrity } from './webllm-models.ts';

const ID = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
const CONFIG = JSON.stringify({ model_type: 'llama', context_window_size: 4096 });
const sri = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

const served: string[] = [];
const server = createServer((request, response) => {
  served.push(request.url ?? '');
  response.end(request.url?.endsWith('.wasm') ? 'not a real model library' : CONFIG);
});
let base = '';
let savedLocation: unknown;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/models/`;
  // WebLLM resolves model URLs against location.origin outside a document.
  savedLocation = (globalThis as { location?: unknown }).location;
  (globalThis as { location?: unknown }).location = { origin: base };
});
afterAll(() => {
  (globalThis as { location?: unknown }).location = savedLocation;
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Loads the self-hosted model with the real engine and returns what it failed with. */
async function load(integrity: ModelRecord['integrity']): Promise<unknown> {
  const record = { ...prebuiltRecord(ID)!, integrity };
  const appConfig: AppConfig = { ...selfHostedConfig(base, ID, { record }), cacheBackend: 'indexeddb' };
  const engine = new MLCEngine({ appConfig });
  return engine.reload(ID).then(() => 'loaded', (error: unknown) => error);
}

describe('WebLLM model files against their record\'s integrity values', () => {
  it('the prebuilt records of WebLLM 0.2.86 carry no integrity values (so only records that do are checked)', () => {
    expect(prebuiltAppConfig.model_list.filter((record) => record.integrity !== undefined)).toEqual([]);
  });

  it('the config we build keeps a record\'s integrity values and makes a mismatch an error, never a warning', () => {
    const integrity = { config: sri(CONFIG), model_lib: sri('x'), tokenizer: { 'tokenizer.json': sri('t') }, onFailure: 'warn' as const };
    const record = selfHostedConfig('https://site.test/m/', ID, { record: { ...prebuiltRecord(ID)!, integrity } }).model_list[0]!;
    expect(record.integrity).toEqual({ ...integrity, onFailure: 'error' });
    expect(strictIntegrity(prebuiltRecord(ID)!)).toBe(prebuiltRecord(ID));
  });

  it('a changed mlc-chat-config.json is refused before anything else of the model is fetched, though the record asked only for a warning', async () => {
    served.length = 0;
    const error = await load({ config: sri(`${CONFIG} `), onFailure: 'warn' });
    expect((error as Error).name).toBe('IntegrityError');
    expect(served.some((url) => url.endsWith('.wasm'))).toBe(false);
    const mapped = mapWebLLMError(error, ID) as WebLLMError;
    expect(mapped).toBeInstanceOf(WebLLMError);
    expect(mapped.kind).toBe('integrity');
    expect(mapped.message).toBe(`mlc-chat-config.json of ${ID} does not match the integrity value its model record carries (expected ${sri(`${CONFIG} `)}, got ${sri(CONFIG)}): it was changed on the server or damaged in the browser's cache, so the model was not loaded. Delete the model's cached files and download it again; the file came from ${base}${ID}/resolve/main/mlc-chat-config.json.`);
  });

  it('a matching config passes and the model library is checked next; the message is the same from the worker\'s string', async () => {
    const error = await load({ config: sri(CONFIG), model_lib: sri('the real library') });
    expect((error as Error).name).toBe('IntegrityError');
    expect((error as Error).message).toContain('.wasm');
    const fromWorker = mapWebLLMError(`IntegrityError: ${(error as Error).message}`, ID) as WebLLMError;
    expect(fromWorker.kind).toBe('integrity');
    expect(fromWorker.message).toMatch(/^SmolLM2-360M-Instruct-q4f16_1_cs1k-webgpu\.wasm of SmolLM2-360M-Instruct-q4f16_1-MLC does not match the integrity value its model record carries \(expected sha256-[\w+/=]+, got sha256-[\w+/=]+\)/);
  });

  it('a record whose integrity value is not an SRI hash is refused with that value', async () => {
    const error = await load({ config: 'md5-abc' });
    expect(mapWebLLMError(error, ID).message).toBe(`The model record of ${ID} carries an integrity value that is not a SHA-256/384/512 SRI hash ("md5-abc"): fix the record; the model was not loaded.`);
  });
});
