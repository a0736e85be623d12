/**
 * The first-visit seeding of the generated demo session, guarded so it happens exactly once: React
 * StrictMode runs the app's effects twice, and two tabs opened at once both start the app. Within a
 * page one call is shared; across tabs a Web Lock serialises the seeders and the "seeded" flag is
 * read again inside the lock, so only the first holder imports.
 */

/** Name of the Web Lock held while the demo is seeded (shared by every tab of the origin). */
export const SEED_LOCK = 'foldlab-seed';
/** Settings key recording that the first visit's demo was seeded (true once done). */
export const DEMO_SEEDED = 'demoSeeded';

/** The slice of `navigator.locks` the guard needs. */
export interface SeedLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** What seeding reads and writes; injected so the guard is tested without a browser. */
export interface SeedDeps {
  /** `navigator.locks`, or undefined where Web Locks are missing (then only the in-page guard holds). */
  locks: SeedLocks | undefined;
  isSeeded(): Promise<boolean>;
  markSeeded(): Promise<void>;
  libraryIsEmpty(): Promise<boolean>;
  /** Imports the demo; resolves true when it was stored. */
  importDemo(): Promise<boolean>;
}

/** Why a seeding call returned: it imported the demo, or it found the work already done. */
export type SeedOutcome = 'seeded' | 'already-seeded' | 'library-not-empty' | 'failed';

/**
 * Returns a function that seeds at most once per page (concurrent and later calls share the first
 * call's promise) and, with Web Locks, at most once per origin. A failed import is not marked, so
 * the next visit tries again; a library that already holds conversations is marked and left alone.
 */
export function createDemoSeeder(deps: SeedDeps): () => Promise<SeedOutcome> {
  let running: Promise<SeedOutcome> | undefined;
  const seedInside = async (): Promise<SeedOutcome> => {
    if (await deps.isSeeded()) return 'already-seeded';
    if (!(await deps.libraryIsEmpty())) {
      await deps.markSeeded();
      return 'library-not-empty';
    }
    if (!(await deps.importDemo())) return 'failed';
    await deps.markSeeded();
    return 'seeded';
  };
  return () => {
    running ??= deps.locks ? deps.locks.request(SEED_LOCK, seedInside) : seedInside();
    return running;
  };
}
