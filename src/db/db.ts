/** The one database instance of the app (the page and the worker each open it; IndexedDB syncs them). */
import { FoldlabDatabase } from './schema.ts';

export const db = new FoldlabDatabase();
