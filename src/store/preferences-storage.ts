/**
 * Where the small preferences live: in the library (Dexie's `settings` table, so a backup carries
 * them and they survive a cleared localStorage) and in localStorage as a synchronous copy, so the
 * first paint already has them. Reading prefers localStorage, then the library; writing goes to
 * both, the library write debounced (the store writes on every change).
 */
import type { StateStorage } from 'zustand/middleware';
import { PREFERENCES_KEY } from '../db/backup-trust.ts';
import { db } from '../db/db.ts';

/** The key of the preferences in localStorage and in the settings table. */
export { PREFERENCES_KEY };
/** The library copy is written this long after the last change, ms. */
const WRITE_DELAY_MS = 400;

let timer: ReturnType<typeof setTimeout> | undefined;
let written: string | undefined;
/** The text last written to localStorage by this page. */
let kept: string | undefined;

function local(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export const preferencesStorage: StateStorage = {
  getItem: (name) => {
    const kept = local()?.getItem(name);
    if (kept != null) return kept;
    return db.settings.get(name).then((row) => (row ? JSON.stringify(row.value) : null), () => null);
  },
  setItem: (name, value) => {
    // The store calls this on every change (jobs, progress): unchanged preferences are not written again.
    if (value === kept) return;
    kept = value;
    local()?.setItem(name, value);
    if (value === written) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      written = value;
      // A closed library (updated in another tab) takes no more writes: localStorage still has them.
      db.settings.put({ key: name, value: JSON.parse(value) as unknown }).catch(() => undefined);
    }, WRITE_DELAY_MS);
  },
  removeItem: (name) => {
    kept = undefined;
    local()?.removeItem(name);
    db.settings.delete(name).catch(() => undefined);
  },
};

/** After a restore: the library's preferences become the page's (the caller rehydrates the store). */
export async function adoptStoredPreferences(): Promise<boolean> {
  const row = await db.settings.get(PREFERENCES_KEY);
  if (!row) return false;
  const text = JSON.stringify(row.value);
  written = text;
  kept = text;
  local()?.setItem(PREFERENCES_KEY, text);
  return true;
}

/** The page's preferences as stored now (`{ state, version }`): what a restore keeps of this browser's own. */
export async function currentPreferences(): Promise<unknown> {
  const text = kept ?? local()?.getItem(PREFERENCES_KEY);
  if (text) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A damaged copy: fall back to the library's.
    }
  }
  return (await db.settings.get(PREFERENCES_KEY))?.value;
}
