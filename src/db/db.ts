/**
 * The one database instance of the app (the page and the worker each open it; IndexedDB syncs
 * them). Each connection closes itself when a newer schema is opened elsewhere, and refuses a
 * library written by a newer Foldlab (upgrade-guard.ts).
 */
import { FoldlabDatabase } from './schema.ts';
import { guardSchema } from './upgrade-guard.ts';

export const db = new FoldlabDatabase();
guardSchema(db);
