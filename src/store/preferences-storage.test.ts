import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '../db/db.ts';
import { adoptStoredPreferences, preferencesStorage, PREFERENCES_KEY } from './preferences-storage.ts';

/** A Map-backed localStorage, as the page has. */
function fakeLocalStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await db.settings.clear();
});

describe('preferences in the library', () => {
  it('are written to the settings table as well as localStorage, and read back from the library when localStorage is empty', async () => {
    vi.stubGlobal('localStorage', fakeLocalStorage());
    const value = JSON.stringify({ state: { counter: 'cl100k', windowTokens: 64_000 }, version: 1 });
    await preferencesStorage.setItem(PREFERENCES_KEY, value);
    expect(localStorage.getItem(PREFERENCES_KEY)).toBe(value);
    await vi.waitFor(async () => expect((await db.settings.get(PREFERENCES_KEY))?.value).toEqual(JSON.parse(value)));

    // A cleared localStorage (or another browser profile after a restore): the library answers.
    vi.stubGlobal('localStorage', fakeLocalStorage());
    expect(await preferencesStorage.getItem(PREFERENCES_KEY)).toBe(value);
  });

  it('the same preferences written again (the store writes at every change) do not touch localStorage', async () => {
    const storage = fakeLocalStorage();
    const setItem = vi.spyOn(storage, 'setItem');
    vi.stubGlobal('localStorage', storage);
    const value = JSON.stringify({ state: { counter: 'o200k', windowTokens: 32_000 }, version: 1 });
    for (let i = 0; i < 5; i++) await preferencesStorage.setItem(PREFERENCES_KEY, value);
    expect(setItem).toHaveBeenCalledTimes(1);
    const changed = JSON.stringify({ state: { counter: 'o200k', windowTokens: 64_000 }, version: 1 });
    await preferencesStorage.setItem(PREFERENCES_KEY, changed);
    expect(setItem).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem(PREFERENCES_KEY)).toBe(changed);
  });

  it('after a restore the library copy becomes the page copy', async () => {
    vi.stubGlobal('localStorage', fakeLocalStorage());
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ state: { counter: 'o200k' }, version: 1 }));
    expect(await adoptStoredPreferences()).toBe(false);
    await db.settings.put({ key: PREFERENCES_KEY, value: { state: { counter: 'chars4' }, version: 1 } });
    expect(await adoptStoredPreferences()).toBe(true);
    expect(JSON.parse(localStorage.getItem(PREFERENCES_KEY) ?? '{}')).toEqual({ state: { counter: 'chars4' }, version: 1 });
  });
});
