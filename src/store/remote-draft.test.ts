// The remote configuration being edited: a preset never carries another's model name, the saved
// one comes back with its preset, and a draft that cannot work says why before it is saved.
import { describe, expect, it } from 'vitest';
import type { RemoteSettings } from './models-slice.ts';
import { draftForPreset, draftProblem, sameRemote } from './remote-draft.ts';

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
