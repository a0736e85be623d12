/**
 * Whether this page may still use the library, and how much of the browser's storage it takes: the
 * schema state the banner and the library's error boundary watch (another tab opened a newer
 * Foldlab, or the library was written by one), and the storage estimate shown under a storage-full
 * error. Components read them here, never from the database modules.
 */
export { schemaState, subscribeSchemaState, type SchemaState } from '../db/upgrade-guard.ts';
export { formatUsage, storageUsage, type StorageUsage } from '../db/storage-errors.ts';
