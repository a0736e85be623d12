/**
 * The vocabulary of a replay: a recorded session driven call by call under one strategy
 * configuration, as if the agent had run with it. What goes in (a configuration), what comes out
 * (a series of context sizes, the compactions with their plans and summaries, totals and the
 * retention probes' scores). Shared by the worker, the CLI `eval` and the compare view.
 */
import type { CompactionRecord } from '../compaction/run.ts';
import type { ContextEntry, Fate, Plan, SummaryTask, TriggerDecision } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import type { Probe, ProbeCategory } from '../probes/types.ts';
import type { UnseenPrefix } from './recorded-usage.ts';

/** One configuration to replay: a strategy, its raw options (UI strings, CLI k=v), a label. */
export interface ReplayConfig {
  /** Shown on the chart and in tables; defaults to `strategy` plus its non-default options. */
  label?: string;
  strategy: string;
  options: Record<string, unknown>;
  /** Run the user's hook module (beforeCompact / afterCompact) at each of this configuration's compactions. */
  hooks?: boolean;
}

/** One model request of the source: an assistant response and the context it was sent. */
export interface ReplayCall {
  /** 0-based call number. */
  call: number;
  /** Index (in the replayed input) of the assistant entry that answered this call. */
  entryIndex: number;
  entryId: string;
  /**
   * Tokens of the context the model was sent for this call (counter units): the transcript's entries
   * in the context plus the result's unseen prefix (system prompt, tool definitions).
   */
  contextTokens: number;
  /** Of those, tokens a provider cache would serve (the unchanged prefix since the previous call). */
  cachedTokens: number;
  /** Tokens of the response (recorded usage when the source has it, else counted). */
  outputTokens: number;
  /** A compaction ran just before this call. */
  compacted: boolean;
  /** The context was over the window: the real agent would have failed this call. */
  overflow: boolean;
  /** Why an overflowing call was sent as it was (the trigger's answer, or what the compaction left). */
  note?: string;
  /** Epoch ms of the response, when the source recorded it. */
  at?: number;
}

/** Score of one probe category: how many probes there were and how many the context kept. */
export interface ProbeScore {
  total: number;
  kept: number;
}

export type ProbeScores = Record<ProbeCategory, ProbeScore>;

/** A probe and whether a context kept it. */
export interface ProbeOutcome {
  probe: Probe;
  kept: boolean;
  span?: string;
}

/**
 * An entry of a replayed context, small enough to keep one list per compaction: a journal entry by
 * id, or the entry the strategy made (summary, compressed output, fixed text) in full.
 */
export type ContextRef =
  | { origin: 'journal'; entryId: string }
  | { origin: Exclude<ContextEntry['origin'], 'journal'>; entry: Entry; replaces?: ContextEntry['replaces'] };

/**
 * Edits that turn a base list into a compaction's context, applied in order from the base's start:
 * a positive number keeps that many base items, a negative number skips (removes) that many, an
 * array inserts those references. Base items left after the last edit are removed. The base is the
 * previous compaction's context followed by the journal entries recorded between that compaction
 * and this one (input indices `previous.appendFrom` up to this compaction's `appendFrom`); for the
 * first compaction it is the entries `0..appendFrom - 1`.
 */
export type ContextDelta = Array<number | ContextRef[]>;

/**
 * A compaction's plan as a replay keeps it: everything but the per-entry lists (fates, the
 * compressed texts, a summary's source indices and prompt variables), which the context and
 * `removedIds` already say and which would make a replay of hundreds of compactions weigh megabytes.
 */
export type ReplayPlan = Pick<Plan, 'options' | 'trigger' | 'cut' | 'notes' | 'tokensBefore' | 'tokensAfterEstimate' | 'nothingToDo'> & {
  /** The strategy, or `folding` for memory folding (folding-replay.ts). */
  strategy: Plan['strategy'] | 'folding';
  summaries: Array<Pick<SummaryTask, 'id' | 'prompt' | 'from' | 'to' | 'maxTokens'>>;
  /** How many input entries got each fate. */
  fates: Record<Fate, number>;
  /** How many entries were rewritten (compressed), with the tokens that saved. */
  compressions: { count: number; tokensSaved: number };
};

/** One compaction the replay made. */
export interface ReplayCompaction {
  /** The call it ran before. */
  call: number;
  trigger: TriggerDecision;
  plan: ReplayPlan;
  /** Summary texts by task id. */
  summaries: Record<string, string>;
  record: CompactionRecord;
  /** The context before and right after, as sent (with the result's unseen prefix, like the calls). */
  tokensBefore: number;
  tokensAfter: number;
  /**
   * The context right after the compaction, in full: set by the folding replay, and in results
   * saved before `contextDelta`. Read a compaction's context with `compactionContext`
   * (compaction-context.ts), whichever of the two it has. The context of a later call (before the
   * next compaction) is this plus the input's entries from `appendFrom` up to that call's entry.
   */
  context?: ContextRef[];
  /** The context right after the compaction as a change to the previous compaction's (see `ContextDelta`). */
  contextDelta?: ContextDelta;
  appendFrom: number;
  /** Journal entry ids that left the verbatim context at this compaction (summarized, compressed or dropped). */
  removedIds: string[];
  /** Probes read from the removed entries, checked against the context right after. */
  probes: ProbeOutcome[];
  scores: ProbeScores;
}

export interface ReplayTotals {
  calls: number;
  /** Sum of context tokens over all calls, plus summarizer input and output tokens. */
  tokensPerTask: number;
  /** Sum of context tokens over all calls alone. */
  contextTokens: number;
  peakTokens: number;
  compactions: number;
  overflowCalls: number;
  summarizerTokens: { input: number; output: number };
  /** USD at the price table's model, cache reads at the cached price when the model has one; null when no price is known. */
  cost: number | null;
  /** The model the cost is for. */
  costModel: string | null;
}

/** A configuration's trigger as a context size (trigger-point.ts). */
export interface TriggerPoint {
  /** Context tokens (the replay's counter) at which the trigger fires; null when it does not fire on the context's size. */
  tokens: number | null;
  /** What fires it, in the configuration's own option names and units. */
  rule: string;
}

export type WindowWarningKind = 'trigger-past-window' | 'keep-past-trigger' | 'kept-past-window' | 'overflow';

/** Why a configuration's context cannot stay inside the window (window-warnings.ts defines each kind). */
export interface WindowWarning {
  kind: WindowWarningKind;
  /** Calls of the run whose context was over the window. */
  overflowCalls: number;
  /** One sentence for the page and the CLI. */
  message: string;
}

export interface ReplayResult {
  config: ReplayConfig;
  /** The label the result is shown under. */
  label: string;
  counter: string;
  contextWindow: number;
  calls: ReplayCall[];
  compactions: ReplayCompaction[];
  totals: ReplayTotals;
  /** Every probe whose source left the verbatim context, checked against the final context. */
  probes: ProbeOutcome[];
  scores: ProbeScores;
  /**
   * The probes of each compaction checked right after it, summed over compactions: what the
   * summaries and placeholders carried at that moment (the summarizer's own retention), before any
   * later compaction could lose it again.
   */
  compactionScores: ProbeScores;
  /** The context after the last recorded call: what the next call would be sent. */
  finalContext: ContextRef[];
  /**
   * The tokens every call's `contextTokens` (and every compaction's before / after, and the totals)
   * holds beyond the transcript, and where the figure comes from. Absent in results saved before it
   * (their figures count the transcript alone).
   */
  unseenPrefix?: UnseenPrefix;
  /** Why the replay stopped early (summarizer failure): the calls up to there are kept. */
  error?: string;
  notes: string[];
  /** With the user's hooks: what they did that changed or failed the replay (a cancel, a throw, a timeout), by call; also in `notes`. */
  hookNotes?: string[];
  /** Where the trigger fires, against `contextWindow`; absent in results saved before it was shown. */
  trigger?: TriggerPoint;
  /** The window warnings of the run (empty when it stays inside); absent in results saved before them. */
  warnings?: WindowWarning[];
}

export interface ReplayProgress {
  call: number;
  calls: number;
  compactions: number;
  phase: 'replaying' | 'summarizing' | 'done';
}
