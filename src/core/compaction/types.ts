/**
 * The vocabulary every compaction strategy shares: what it is given (the branch's entries with
 * their token counts), the plan it makes before anything is summarized (and why), the summaries
 * it asks for, and the context it assembles afterwards. Strategies are pure; nothing here edits
 * the journal — a context is a new list that points back at journal entries by id.
 */
import type { Entry, Role } from '../journal/entry.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import type { TokenIndex } from '../tokens/prefix-sums.ts';

export type StrategyId =
  | 'augment' | 'pi' | 'layered' | 'budget' | 'sliding-window' | 'checkpoints' | 'two-layer' | 'query-on-demand' | 'custom'
  | 'observation-masking' | 'tool-result-clearing' | 'masking-then-summary'
  | 'codex' | 'claude-code' | 'opencode';

/** What a strategy is given. `entries` is one branch, root first, as the model saw it. */
export interface CompactionInput {
  entries: readonly Entry[];
  /** Per-entry counts of `entries` (same order) with `counter`. */
  tokens: TokenIndex;
  counter: TokenCounter;
  /** Context window of the agent model, tokens. */
  contextWindow: number;
  /** The previous compaction of this conversation, if any (iterative / nested / archived summaries). */
  previous?: PreviousCompaction;
  /** Entry ids the user pinned: never summarized (A13). */
  pinned?: ReadonlySet<string>;
  /** Clock, epoch ms (injectable in tests). */
  now: number;
  /**
   * Tokens every call sends that `entries` do not hold (system prompt, tool definitions), in the
   * counter's units: triggers compare the counted context plus these with their thresholds
   * (compaction/unseen-prefix.ts). Absent: strategies that read recorded usage (pi, layered) read it
   * as their agents do, the others count the transcript alone.
   */
  unseenPrefixTokens?: number;
}

/** What a later compaction needs from an earlier one. */
export interface PreviousCompaction {
  strategy: StrategyId;
  /** The summary text(s) the earlier run produced, oldest first. */
  summaries: string[];
  /** Id of the first entry the earlier run kept verbatim (entries before it are already summarized). */
  firstKeptEntryId?: string;
  /** Strategy-specific state (Augment summary version, pi file lists, ...). */
  state?: Record<string, unknown>;
}

/** Whether the strategy's own trigger fires now, with the rule and the numbers behind it. */
export interface TriggerDecision {
  fire: boolean;
  /** The rule that decided, e.g. "threshold". */
  rule: string;
  /** Human-readable, with the numbers: "contextTokens 183,402 > 200,000 - 16,384". */
  detail: string;
  numbers: Record<string, number>;
  /**
   * When a trigger that does not fire now would fire by itself, with no new model call: a timer
   * to arm (A1, Augment's cache-expiry timer: the write time + cacheTTLMs - buffer). Epoch ms;
   * absent when the strategy arms none.
   */
  wakeAt?: number;
}

/** What happens to one entry of the input. */
export type Fate = 'keep' | 'summarize' | 'compress' | 'drop';

/** A summary the plan needs: which entries, which prompt, which template the offline summarizer fills. */
export interface SummaryTask {
  id: string;
  /** Prompt file id in prompts/ (without extension), e.g. 'pi-summary', 'pi-update-summary'. */
  prompt: string;
  /** Indices into `input.entries` (inclusive range) the summary covers. */
  from: number;
  to: number;
  /** When the covered entries are not contiguous (budget drops): exactly these indices, in order. */
  indices?: number[];
  /** The previous summary to update or nest (pi update path, Augment nested mode). */
  previousSummary?: string;
  /** Variables for the prompt beyond the transcript (e.g. abridged history). */
  vars?: Record<string, string>;
  /**
   * Placeholders filled with another prompt file rendered with the same variables (placeholder ->
   * prompt id), so optional parts of a prompt are files too; their versions are recorded.
   */
  sections?: Record<string, string>;
  /** Upper bound on the summary's length, tokens. */
  maxTokens?: number;
}

/** An entry whose content the strategy rewrites for the context (tool output compression, L3). */
export interface Compression {
  index: number;
  /** Replacement blocks' text, as the model will see it. */
  text: string;
  tokensBefore: number;
  tokensAfter: number;
  rule: string;
}

export interface Plan {
  strategy: StrategyId;
  /** The parsed options the plan was made with. */
  options: Record<string, unknown>;
  trigger: TriggerDecision;
  /** Index of the first entry kept verbatim after the summarized head, and the rule that put it there. */
  cut?: { index: number; rule: string };
  /** One fate per input entry. */
  fates: Fate[];
  summaries: SummaryTask[];
  compressions: Compression[];
  tokensBefore: number;
  /**
   * Tokens of the assembled context: the strategy's estimate (summaries counted at their budget),
   * made true for the summarizer by compaction/planned-after.ts where `afterBasis` says so.
   */
  tokensAfterEstimate: number;
  /** How `tokensAfterEstimate` was found (planned-after.ts); absent: the strategy's own estimate. */
  afterBasis?: PlanAfterBasis;
  /** Why each decision was made, in order. */
  notes: string[];
  /** Set when there is nothing to compact, with the reason the user sees. */
  nothingToDo?: string;
}

/**
 * 'counted': no summary to make, the assembled context counted; 'offline': counted with the offline
 * summaries the run writes; 'budget': summaries at their budget, an estimate (a model writes them).
 */
export type PlanAfterBasis = 'counted' | 'offline' | 'budget';

/** An entry of an assembled context: a journal entry kept as is, or one the strategy made. */
export interface ContextEntry {
  role: Role;
  entry: Entry;
  /** 'journal' = the journal entry unchanged; 'summary' = made from a summary; 'compressed' = journal entry rewritten; 'synthetic' = fixed text the strategy adds. */
  origin: 'journal' | 'summary' | 'compressed' | 'synthetic';
  /** For summaries: the journal entry ids it replaces (first and last) and how many. */
  replaces?: { fromId: string; toId: string; count: number };
}

/** The context the model would see after compaction, with the state the next compaction needs. */
export interface CompactedContext {
  entries: ContextEntry[];
  tokensAfter: number;
  previous: PreviousCompaction;
  /** Whether entries were removed from the context (budget drops, timeout truncation), with or without a summary of them. */
  truncationApplied: boolean;
  summaryApplied: boolean;
  notes: string[];
}
