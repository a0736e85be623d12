/**
 * A saved replay or compare (table `comparisons`, schema v3): the request it was run with (no job
 * id, no key, no self-hosted model config) and the result the replay produced, whose entries are
 * referenced by id. The page's and the worker's compare messages are built from these types.
 */
import type { InputScope, ReplayFrom } from '../core/compaction/input-scope.ts';
import type { RecordedRun, UncompactedRun } from '../core/replay/recorded-run.ts';
import type { UnseenPrefix } from '../core/replay/recorded-usage.ts';
import type { ReplayConfig, ReplayResult } from '../core/replay/types.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import type { StoredRemote } from './stored-remote.ts';

/** A compare request as stored: no job id, no API key, no self-hosted model config. */
export interface StoredCompareRequest {
  conversationId: string;
  /** Branch leaf (default: the active branch). */
  leafId?: string;
  /** Where the replay starts on the branch (default 'start': the first entry, the source's own compactions left out). */
  from?: ReplayFrom;
  counter: CounterId;
  contextWindow: number;
  /** Price table model id or window preset the cost is computed for (see src/core/pricing.ts). */
  priceModel?: string;
  configs: ReplayConfig[];
  /** 'offline' (default), 'remote' (with `remote`), 'webllm' (with `localModelId`): makes every summary of every configuration. */
  summarizer: string;
  /** The remote model, without its key. */
  remote?: StoredRemote;
  localModelId?: string;
  /** Probe ids the user dismissed as wrong: left out of every score. */
  dismissedProbes?: string[];
  /** Per summary (default 120 s). */
  timeoutMs?: number;
  /** The user's estimate of the unseen prefix (tokens or a preset id), used only where no call recorded usage. */
  unseenPrefix?: string;
  /** The user's hook module (the Compact tab's): run in its sandbox at each compaction of the configurations whose `hooks` is set. Never saved with the result. */
  hookSource?: string;
  /** Time each hook call may take, ms (default 2,000). */
  hookTimeoutMs?: number;
}

export interface CompareResult {
  conversationId: string;
  leafId?: string;
  counter: CounterId;
  counterLabel: string;
  contextWindow: number;
  priceModel?: string;
  /** Ids of the replayed input's entries, in order: `ReplayCall.entryIndex` and `appendFrom` index this. */
  entryIds: string[];
  /** Where the replay started, what it covered and why (absent in comparisons stored before it was recorded). */
  scope?: InputScope;
  /** One per configuration, in request order; a configuration whose summarizer failed has `error` and the calls up to the failure. */
  results: ReplayResult[];
  /** The source agent's own run over the same calls (null: no usage recorded; absent in comparisons stored before it was shown). */
  recorded?: RecordedRun | null;
  /** The same calls with nothing compacted (absent in comparisons stored before it). */
  uncompacted?: UncompactedRun;
  /** What every call sends beside the transcript, included in every curve and total (absent in comparisons stored before it). */
  unseenPrefix?: UnseenPrefix;
  /** Wall time of the whole compare, ms. */
  durationMs: number;
}

/** One finished replay or compare (v3), saved when it finishes; journal entries are referenced by id. */
export interface ComparisonRow {
  id: string;
  conversationId: string;
  /** The import it was run on: after a re-import its entry ids may no longer resolve. */
  importId: string;
  createdAt: number;
  name: string;
  request: StoredCompareRequest;
  result: CompareResult;
}
