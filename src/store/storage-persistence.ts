/**
 * Asks the browser to keep Foldlab's storage (`navigator.storage.persist()`) once, from the page, at
 * the first import the user makes: best-effort storage may be cleared when the disk runs low, and
 * imported sessions and paid model summaries would go with it. The reason is shown before asking
 * (a one-line notice, written first), and the answer is remembered in the settings table and shown.
 */
import { db } from '../db/db.ts';

export const PERSISTENCE_KEY = 'storage.persistence';

export type PersistenceState = 'asking' | 'granted' | 'denied' | 'unsupported';

export interface PersistenceSetting {
  state: PersistenceState;
  /** When the browser answered (ms since epoch). */
  at: number;
}

export const PERSISTENCE_WHY = 'Imported sessions and paid model summaries live in this browser; without persistent storage it may clear them when disk space runs low.';

let asking: Promise<void> | undefined;

/** Asks once per profile (and once at a time); later calls return at once. Never throws: storage works either way. */
export function requestPersistenceOnce(storage: Pick<StorageManager, 'persist'> | undefined = globalThis.navigator?.storage): Promise<void> {
  asking ??= ask(storage).catch(() => undefined);
  return asking;
}

async function ask(storage: Pick<StorageManager, 'persist'> | undefined): Promise<void> {
  const known = (await db.settings.get(PERSISTENCE_KEY))?.value as PersistenceSetting | undefined;
  if (known && known.state !== 'asking') return;
  if (!storage?.persist) {
    await db.settings.put({ key: PERSISTENCE_KEY, value: { state: 'unsupported', at: Date.now() } satisfies PersistenceSetting });
    return;
  }
  // The notice saying why is stored (and so shown) before the browser is asked.
  await db.settings.put({ key: PERSISTENCE_KEY, value: { state: 'asking', at: Date.now() } satisfies PersistenceSetting });
  const granted = await storage.persist().catch(() => false);
  await db.settings.put({ key: PERSISTENCE_KEY, value: { state: granted ? 'granted' : 'denied', at: Date.now() } satisfies PersistenceSetting });
}
