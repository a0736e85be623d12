/**
 * What the Sweep tab reads from the library: the saved sweeps, newest first. Apart from
 * library-reads.ts, which the first screen loads: a sweep row's checks bring the strategy registry.
 */
import { db } from '../db/db.ts';
import { listSweeps } from '../db/sweeps.ts';

/** The saved sweeps, newest first. */
export function savedSweeps() {
  return listSweeps(db);
}
