/**
 * What the page asks the engine worker when it replays or compares strategy configurations on one
 * stored conversation, and what comes back. Kept apart from protocol.ts so the compare job, the
 * store and the UI share these types without importing the rest of the engine.
 */
import type { ReplayProgress } from '../../core/replay/types.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';
import type { AppConfig } from '@mlc-ai/web-llm';
import type { StoredCompareRequest } from '../../db/comparison-row.ts';

export type { CompareResult } from '../../db/comparison-row.ts';

export interface CompareRequest extends Omit<StoredCompareRequest, 'remote'> {
  jobId: string;
  remote?: RemoteConfig;
  localAppConfig?: AppConfig;
}

/** Where `compareAndSave` files the result: the import it was run on and the name shown. */
export interface CompareSave {
  importId: string;
  name: string;
}

export interface CompareProgress extends ReplayProgress {
  jobId: string;
  /** Index of the configuration being replayed, and how many there are. */
  config: number;
  configs: number;
}

