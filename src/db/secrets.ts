/**
 * API keys the user asked this device to remember: a separate IndexedDB database, apart from the
 * conversations and runs, so no export, log or backup of the app's data can ever include one.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface SecretRow {
  /** Provider preset id (or 'custom'). */
  providerId: string;
  key: string;
  /** The origin of the endpoint the key was entered for (missing on keys saved before keys were bound: those are asked for again). */
  origin?: string;
  savedAt: number;
}

export class SecretsDatabase extends Dexie {
  keys!: EntityTable<SecretRow, 'providerId'>;
  constructor(name = 'foldlab-secrets') {
    super(name);
    this.version(1).stores({ keys: 'providerId' });
  }
}

export const secrets = new SecretsDatabase();
