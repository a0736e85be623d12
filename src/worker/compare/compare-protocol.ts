/**
 * What the page asks the engine worker when it replays or compares strategy configurations on one
 * stored conversation, and what comes back. Kept apart from protocol.ts so the compare job, the
 * store and the UI share these types without importing the rest of the engine.
 */
import type { InputScope, ReplayFrom } from '../../core/compaction/input-scope.ts';
import type { ReplayConfig, ReplayProgress, ReplayResult } from '../../core/replay/types.ts';
import type { RecordedRun, UncompactedRun } from '../../core/replay/recorded-run.ts';
import type { UnseenPrefix } from '../../core/replay/recorded-usage.ts';
import type { CounterId } from '../../core/tokens/counters.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';
import type { AppConfig } from '@mlc-ai/web-llm';

/** Two to eight configurations in a compare; one in a plain replay. */
export const MAX_COMPARE_CONFIGS = 8;

export interface CompareRequest {
  jobId: string;
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
  remote?: RemoteConfig;
  localModelId?: string;
  localAppConfig?: AppConfig;
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
