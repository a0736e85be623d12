/**
 * What happens when the library's schema changes under a running page or worker: another tab that
 * opens a newer Foldlab upgrades the database, so this connection closes at once (it must not keep
 * writing with the old schema, nor reopen by itself) and the page says to reload. A library
 * written by a newer Foldlab is refused on open, and nothing in it is touched.
 */
import type Dexie from 'dexie';
import { SCHEMA_VERSION } from './schema.ts';

export const UPDATED_ELSEWHERE_MESSAGE = 'Foldlab was updated in another tab — reload';

/** The library was written by a newer Foldlab than this page: nothing was read or changed. */
export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
  constructor(readonly installed: number) {
    super(`This library was saved by a newer version of Foldlab (schema v${installed}; this page knows v${SCHEMA_VERSION}). Nothing was changed: reload to get the new version.`);
  }
}

/** Why the database is closed for this page, if it is. */
export type SchemaState =
  | { kind: 'ok' }
  | { kind: 'updated-elsewhere'; message: string }
  | { kind: 'deleted-elsewhere'; message: string }
  | { kind: 'newer'; message: string };

let state: SchemaState = { kind: 'ok' };
const listeners = new Set<() => void>();

function setState(next: SchemaState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** For `useSyncExternalStore`: the current state and a subscription. */
export function schemaState(): SchemaState {
  return state;
}

export function subscribeSchemaState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Installs the two guards on a database instance. `onChange` hears the new state (the module
 * state above is updated either way; tests pass their own handler).
 */
export function guardSchema(db: Dexie, onChange: (next: SchemaState) => void = setState): void {
  // Returning false stops Dexie's default handler, which would reopen the database by itself.
  db.on('versionchange', (event: IDBVersionChangeEvent) => {
    db.close({ disableAutoOpen: true });
    onChange(event.newVersion
      ? { kind: 'updated-elsewhere', message: `${UPDATED_ELSEWHERE_MESSAGE}.` }
      : { kind: 'deleted-elsewhere', message: 'The library was deleted in another tab — reload.' });
    return false;
  });
  // Dexie opens a newer database at its own version rather than failing: refuse it here.
  db.on('ready', (opened: Dexie) => {
    const installed = opened.backendDB().version / 10;
    if (installed > SCHEMA_VERSION) {
      const error = new NewerSchemaError(installed);
      onChange({ kind: 'newer', message: error.message });
      db.close({ disableAutoOpen: true });
      throw error;
    }
  });
}
