/**
 * The typed API the engine worker serves to the page (over Comlink). Progress arrives through a
 * callback; every long job has a job id the page can cancel; errors cross as {name, message}.
 */
import type { FormatId } from '../core/import/types.ts';
import type { InspectReport } from '../core/inspect.ts';
import type { BlockType, Role } from '../core/journal/entry.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { ConversationRow } from '../db/schema.ts';

export type JobPhase = 'reading' | 'saving' | 'counting' | 'generating';

export interface JobProgress {
  jobId: string;
  phase: JobPhase;
  done: number;
  total: number;
  /** Unit of done/total: bytes while reading, entries while counting or saving. */
  unit: 'bytes' | 'entries';
}

export type ProgressCallback = (progress: JobProgress) => void;

export interface ImportRequest {
  jobId: string;
  fileName: string;
  format?: FormatId;
  /** Re-import into this conversation (its old entries are replaced only if the import succeeds). */
  replaceId?: string;
  origin: ConversationRow['origin'];
  title?: string;
}

export interface ImportOutcome {
  conversation: ConversationRow;
  report: InspectReport;
}

export interface TokenCounts {
  conversationId: string;
  counter: CounterId;
  label: string;
  exact: boolean;
  totals: Uint32Array;
  total: number;
  byRole: Record<Role, number>;
  byKind: Record<BlockType, number>;
  /** True when the counts came from the cache (Dexie) rather than a fresh count. */
  cached: boolean;
}

export interface EngineApi {
  importBlob(blob: Blob, request: ImportRequest, onProgress: ProgressCallback): Promise<ImportOutcome>;
  importDemo(request: ImportRequest & { iterations?: number; seed?: number }, onProgress: ProgressCallback): Promise<ImportOutcome>;
  countTokens(jobId: string, conversationId: string, counter: CounterId, onProgress: ProgressCallback): Promise<TokenCounts>;
  inspect(conversationId: string, counter: CounterId): Promise<InspectReport>;
  cancel(jobId: string): void;
}

/** Thrown when the user cancels a job. */
export class JobCancelledError extends Error {
  override name = 'JobCancelledError';
  constructor() {
    super('Cancelled: nothing was changed.');
  }
}
