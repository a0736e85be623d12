// The remote configuration being edited: a preset never carries another's model name, the saved
// one comes back with its preset, and a draft that cannot work says why before it is saved.
import { describe, expect, it } from 'vitest';
import type { RemoteSettings } from './models-slice.ts';
import { openAIErrorBody, openAIStream } from '../llm/remote/test-server.ts';
import { useFakeServer } from '../llm/remote/test-fixtures.ts';
import { draftForPreset, draftProblem, sameRemote, testRemoteConnection } from './remote-draft.ts';

const saved: RemoteSettings = { presetId: 'ollama', api: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b' };

describe('the remote draft', () => {
  it('does not carry the model name from one preset to another', () => {
    const vllm = draftForPreset(saved, saved, 'vllm');
    expect(vllm).toEqual({ presetId: 'vllm', api: 'openai', baseUrl: 'http://localhost:8000/v1', model: '' });
    expect(draftForPreset(saved, { ...vllm, model: 'mistral' }, 'anthropic')).toEqual({ presetId: 'anthropic', api: 'anthropic', baseUrl: 'https://api.anthropic.com', model: '' });
    expect(draftForPreset(saved, vllm, 'custom')).toEqual({ presetId: 'custom', api: 'openai', baseUrl: 'http://localhost:8000/v1', model: '' });
  });

  it('gives back the saved configuration with its preset', () => {
    expect(draftForPreset(saved, draftForPreset(saved, saved, 'vllm'), 'ollama')).toEqual(saved);
  });

  it('says what keeps a draft from being saved', () => {
    expect(draftProblem(saved)).toBeUndefined();
    expect(draftProblem({ ...saved, model: ' ' })).toBe('Name the model this server should summarize with.');
    expect(draftProblem({ ...saved, baseUrl: 'localhost:8000' })).toBe('The base URL must start with http:// or https://, not localhost:.');
    expect(draftProblem({ ...saved, baseUrl: 'not a url' })).toBe('The base URL "not a url" is not an address: write it as http(s)://host[:port]/path.');
  });

  it('compares configurations as saved (surrounding spaces ignored)', () => {
    expect(sameRemote(saved, { ...saved, model: ' qwen3:8b ' })).toBe(true);
    expect(sameRemote(saved, { ...saved, model: 'qwen3:4b' })).toBe(false);
  });
});

describe('Test connection', () => {
  const server = useFakeServer();
  const draft = (): RemoteSettings => ({ presetId: 'custom', api: 'openai', baseUrl: `${server.url}/v1`, model: 'qwen3:4b' });

  it('asks the draft\'s server for one word with the key typed for it, and answers with the model that replied', async () => {
    server.reply({ events: openAIStream('OK', { model: 'qwen3:4b-instruct' }) });
    await expect(testRemoteConnection(draft(), 'sk-typed')).resolves.toEqual({ model: 'qwen3:4b-instruct', text: 'OK' });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-typed');
    expect(JSON.stringify(request?.body)).toContain('Reply with the single word OK.');
  });

  it('throws the server\'s refusal, and a draft that cannot work before any request', async () => {
    server.reply({ status: 401, json: openAIErrorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') });
    await expect(testRemoteConnection(draft(), 'sk-wrong')).rejects.toThrow(/401|Incorrect API key/);
    await expect(testRemoteConnection({ ...draft(), model: ' ' }, '')).rejects.toThrow('Choose a model name');
    expect(server.requests).toHaveLength(1);
  });
});
