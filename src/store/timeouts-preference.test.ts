/**
 * Timeouts saved before the reply timeout existed come back with it at its default (300 s), the
 * saved ones kept, so Settings > Models and live sessions never see a missing value.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { PREFERENCES_KEY } from './preferences-storage.ts';
import { useAppStore } from './store.ts';

describe('saved timeouts', () => {
  it('keep their values and gain the reply timeout at its default', async () => {
    const map = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value), removeItem: (key: string) => void map.delete(key) });
    map.set(PREFERENCES_KEY, JSON.stringify({ state: { counter: 'o200k', timeouts: { connect: 5, idle: 6, total: 7 } }, version: 1 }));
    await useAppStore.persist.rehydrate();
    expect(useAppStore.getState().timeouts).toEqual({ connect: 5, idle: 6, total: 7, reply: 300 });
    vi.unstubAllGlobals();
  });
});
