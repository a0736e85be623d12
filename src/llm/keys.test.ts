import { describe, expect, it } from 'vitest';
import { KeyRing, type SecretStore } from './keys.ts';

function memoryStore(): SecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: async (id) => data.get(id), put: async (id, key) => void data.set(id, key), delete: async (id) => void data.delete(id) };
}

describe('KeyRing', () => {
  it('keeps a key in memory only unless the user opts in', async () => {
    const store = memoryStore();
    const ring = new KeyRing(store);
    await ring.set('openai', ' sk-canary ', false);
    expect(await ring.get('openai')).toBe('sk-canary');
    expect(store.data.size).toBe(0);
    await ring.set('openai', 'sk-canary', true);
    expect(store.data.get('openai')).toBe('sk-canary');
    expect(ring.isRemembered('openai')).toBe(true);
    expect(await new KeyRing(store).get('openai')).toBe('sk-canary');
  });

  it('un-remembering and Forget remove the stored key', async () => {
    const store = memoryStore();
    const ring = new KeyRing(store);
    await ring.set('anthropic', 'k1', true);
    await ring.set('anthropic', 'k2', false);
    expect(store.data.has('anthropic')).toBe(false);
    expect(await ring.get('anthropic')).toBe('k2');
    await ring.set('anthropic', 'k3', true);
    await ring.forget('anthropic');
    expect(store.data.has('anthropic')).toBe(false);
    expect(await ring.get('anthropic')).toBeUndefined();
  });
});
