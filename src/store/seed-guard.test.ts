/**
 * The first-visit seeding guard: StrictMode's double effect and two tabs opened at once import the
 * demo once; a failed import is retried on the next visit; a non-empty library is left alone.
 */
import { describe, expect, it } from 'vitest';
import { createDemoSeeder, SEED_LOCK, type SeedDeps, type SeedLocks } from './seed-guard.ts';

/** One origin's IndexedDB: the seeded flag and the conversations, shared by every "tab". */
class Origin {
  seeded = false;
  conversations = 0;
  imports = 0;
  failNext = false;
}

/** An exclusive lock manager like navigator.locks: one holder per name, the others queue. */
class FakeLocks implements SeedLocks {
  names: string[] = [];
  private tail = new Map<string, Promise<unknown>>();
  request<T>(name: string, callback: () => Promise<T>): Promise<T> {
    this.names.push(name);
    const previous = this.tail.get(name) ?? Promise.resolve();
    const next = previous.then(callback, callback);
    this.tail.set(name, next.catch(() => undefined));
    return next;
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** One tab's seeder: every read and write yields, as IndexedDB and the worker do. */
function tab(origin: Origin, locks: SeedLocks | undefined) {
  const deps: SeedDeps = {
    locks,
    isSeeded: async () => (await tick(), origin.seeded),
    markSeeded: async () => {
      await tick();
      origin.seeded = true;
    },
    libraryIsEmpty: async () => (await tick(), origin.conversations === 0),
    importDemo: async () => {
      await tick();
      await tick();
      if (origin.failNext) {
        origin.failNext = false;
        return false;
      }
      origin.imports++;
      origin.conversations++;
      return true;
    },
  };
  return createDemoSeeder(deps);
}

describe('createDemoSeeder', () => {
  it('imports once when the effect runs twice in one page (StrictMode)', async () => {
    const origin = new Origin();
    const seed = tab(origin, undefined);
    const outcomes = await Promise.all([seed(), seed()]);
    expect(origin.imports).toBe(1);
    expect(outcomes).toEqual(['seeded', 'seeded']);
    expect(await seed()).toBe('seeded');
    expect(origin.imports).toBe(1);
  });

  it('imports once when two tabs start at once, under the Web Lock', async () => {
    const origin = new Origin();
    const locks = new FakeLocks();
    const outcomes = await Promise.all([tab(origin, locks)(), tab(origin, locks)()]);
    expect(origin.imports).toBe(1);
    expect(outcomes.sort()).toEqual(['already-seeded', 'seeded']);
    expect(locks.names).toEqual([SEED_LOCK, SEED_LOCK]);
  });

  it('without the lock, two tabs would both import (what the lock prevents)', async () => {
    const origin = new Origin();
    await Promise.all([tab(origin, undefined)(), tab(origin, undefined)()]);
    expect(origin.imports).toBe(2);
  });

  it('does nothing on a later visit', async () => {
    const origin = new Origin();
    await tab(origin, new FakeLocks())();
    expect(await tab(origin, new FakeLocks())()).toBe('already-seeded');
    expect(origin.imports).toBe(1);
  });

  it('leaves a library that already holds conversations alone, and marks it', async () => {
    const origin = new Origin();
    origin.conversations = 3;
    expect(await tab(origin, new FakeLocks())()).toBe('library-not-empty');
    expect(origin.imports).toBe(0);
    expect(origin.seeded).toBe(true);
  });

  it('does not mark a failed import, so the next visit seeds', async () => {
    const origin = new Origin();
    origin.failNext = true;
    expect(await tab(origin, new FakeLocks())()).toBe('failed');
    expect(origin.seeded).toBe(false);
    expect(await tab(origin, new FakeLocks())()).toBe('seeded');
    expect(origin.imports).toBe(1);
  });
});
