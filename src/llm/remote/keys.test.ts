import { describe, expect, it } from 'vitest';
import { KeyRing, type SecretStore, type StoredKey } from './keys.ts';

function memoryStore(): SecretStore & { data: Map<string, StoredKey> } {
  const data = new Map<string, StoredKey>();
  return { data, get: async (id) => data.get(id), put: async (id, key) => void data.set(id, { ...key }), delete: async (id) => void data.delete(id) };
}

const OPENAI = 'https://api.openai.com/v1';

describe('KeyRing', () => {
  it('keeps a key in memory only unless the user opts in', async () => {
    const store = memoryStore();
    const ring = new KeyRing(store);
    await ring.set('openai', ' sk-canary ', false, OPENAI);
    expect(await ring.get('openai')).toEqual({ key: 'sk-canary', origin: 'https://api.openai.com' });
    expect(store.data.size).toBe(0);
    await ring.set('openai', 'sk-canary', true, OPENAI);
    expect(store.data.get('openai')).toEqual({ key: 'sk-canary', origin: 'https://api.openai.com' });
    expect(ring.isRemembered('openai')).toBe(true);
    expect(await new KeyRing(store).get('openai')).toEqual({ key: 'sk-canary', origin: 'https://api.openai.com' });
  });

  it('binds each key to the origin of the base URL it was entered for', async () => {
    const ring = new KeyRing(memoryStore());
    await ring.set('custom', 'k', false, 'http://localhost:11434/v1/');
    expect((await ring.get('custom'))?.origin).toBe('http://localhost:11434');
    await ring.set('custom', 'k', false, 'not a url');
    expect((await ring.get('custom'))?.origin).toBe('');
  });

  it('drops a key remembered before keys were bound, and says so, instead of binding it to the current settings', async () => {
    const store = memoryStore();
    store.data.set('openai', { key: 'sk-old' });
    const ring = new KeyRing(store);
    expect(await ring.get('openai')).toBeUndefined();
    expect(ring.wasUnbound('openai')).toBe(true);
    expect(store.data.has('openai')).toBe(false);
    await ring.set('openai', 'sk-new', true, OPENAI);
    expect(ring.wasUnbound('openai')).toBe(false);
  });

  it('un-remembering and Forget remove the stored key', async () => {
    const store = memoryStore();
    const ring = new KeyRing(store);
    await ring.set('anthropic', 'k1', true, 'https://api.anthropic.com');
    await ring.set('anthropic', 'k2', false, 'https://api.anthropic.com');
    expect(store.data.has('anthropic')).toBe(false);
    expect((await ring.get('anthropic'))?.key).toBe('k2');
    await ring.set('anthropic', 'k3', true, 'https://api.anthropic.com');
    await ring.forget('anthropic');
    expect(store.data.has('anthropic')).toBe(false);
    expect(await ring.get('anthropic')).toBeUndefined();
  });
});
