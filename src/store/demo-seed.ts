/**
 * The app's first-visit seeder: the guard of seed-guard.ts wired to the browser's Web Locks, the
 * settings table of IndexedDB and the worker's demo import.
 */
import { db } from '../db/db.ts';
import { importDemo } from './actions.ts';
import { createDemoSeeder, DEMO_SEEDED, type SeedLocks } from './seed-guard.ts';

function browserLocks(): SeedLocks | undefined {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return undefined;
  return { request: (name, callback) => locks.request(name, callback) };
}

/** The app's seeder: the settings table of IndexedDB, the worker's demo import. */
export const seedDemoOnce = createDemoSeeder({
  locks: browserLocks(),
  isSeeded: async () => (await db.settings.get(DEMO_SEEDED))?.value === true,
  markSeeded: async () => {
    await db.settings.put({ key: DEMO_SEEDED, value: true });
  },
  libraryIsEmpty: async () => (await db.conversations.count()) === 0,
  importDemo: async () => (await importDemo()) !== undefined,
});
