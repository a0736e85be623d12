/**
 * What the page asks the engine worker to judge a saved comparison with a model (the probes'
 * judged mode, X7), and what comes back: an estimate before anything is sent, progress, the
 * graded answers. Kept apart from protocol.ts so the store and the UI share these types alone.
 */
import type { ConfigGrades, JudgedItem, JudgeEstimate, JudgeProgress, JudgeSkip } from '../../core/replay/judge.ts';
import type { CounterId } from '../../core/tokens/counters.ts';
import type { RemoteConfig } from '../../llm/remote/remote.ts';
import type { AppConfig } from '@mlc-ai/web-llm';

export interface JudgeRequest {
  jobId: string;
  /** The saved comparison (src/db/comparisons.ts) whose final contexts are judged. */
  comparisonId: string;
  /** 'remote' (with `remote`) or 'webllm' (with `localModelId`): answers and grades. The offline summarizer cannot judge. */
  summarizer: string;
  /** The remote provider, key included: held in memory for this request only, never stored. */
  remote?: RemoteConfig;
  localModelId?: string;
  localAppConfig?: AppConfig;
  /** Probe ids the user dismissed as wrong: left out of every reference. */
  dismissedProbes?: string[];
  /** Counter of the estimate (default: the comparison's; 'chars' counts characters, so chars/4 is used instead). */
  counter?: CounterId;
  /** Per request (default 120 s). */
  timeoutMs?: number;
  /** Characters of a final context sent, at most (default 400,000, both ends kept). */
  maxContextChars?: number;
}

/** The estimate, with what it is for. */
export interface JudgeQuote extends JudgeEstimate {
  comparisonId: string;
  /** "openai · gpt-4o-mini", "the local model X". */
  modelLabel: string;
  /** The model runs on this device: no money, only time. */
  local: boolean;
  /** Configurations whose final context was clipped to the character limit before being sent. */
  clipped: string[];
  skipped: JudgeSkip[];
}

export interface JudgeJobProgress extends JudgeProgress {
  jobId: string;
}

export interface JudgeResult {
  comparisonId: string;
  modelLabel: string;
  /** Model names the provider reported (a dated snapshot, for instance). */
  models: string[];
  items: JudgedItem[];
  grades: ConfigGrades[];
  skipped: JudgeSkip[];
  /** Requests sent by this run (0 when everything came from the cache). */
  requests: number;
  usage: { input: number; output: number };
  /** USD of this run's usage at the model's price; null when unknown; 0 for a local model. */
  cost: number | null;
  durationMs: number;
}
