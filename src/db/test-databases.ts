/**
 * For tests only: fresh, empty libraries (each its own IndexedDB database under fake-indexeddb),
 * deleted after every test of the file that asks for them.
 */
import { afterEach } from 'vitest';
import { FoldlabDatabase } from './schema.ts';

/** Registers the clean-up and returns the function that opens one more fresh library. */
export function freshDatabases(): () => FoldlabDatabase {
  const open: FoldlabDatabase[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.delete();
  });
  return () => {
    const db = new FoldlabDatabase(`t-${Math.random()}`);
    open.push(db);
    return db;
  };
}
