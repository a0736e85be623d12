/**
 * The data of memory folding (seed 003): iterations of a run, folded blocks with the seed's index
 * fields, the events of a replay and the run it produces. Plain data, so a worker can post it.
 */
import type { TimelineRetrieval } from './timeline-data.ts';

/** L0 full … L4 one line (F1). */
export type Level = 0 | 1 | 2 | 3 | 4;

/** One model call with the tool results answering it; positions index the entries given to `toIterations`. */
export interface Iteration {
  /** 0-based iteration number. */
  index: number;
  /** First and last position (inclusive) in the entries array; for a whole journal these are journal indices. */
  from: number;
  to: number;
  /** True when a (non-injected) user message opens this iteration. */
  userTurn: boolean;
}

/** What a folded block is in the seed's vocabulary, by level. */
export type FoldedBlockType = 'full' | 'elided' | 'summary' | 'chapter' | 'phase';

export interface Retrievability {
  /** Where the full content lives: `journal:seq_<from>_<to>` (entry positions). */
  storageRef: string;
  /** F8 score, 0..1. */
  importance: number;
  /** Iteration of the last recall or re-touch, or null. */
  lastAccessed: number | null;
  accessCount: number;
}

/** A span of iterations shown at one level, with the index that makes it recallable (F5). */
export interface FoldedBlock {
  /** `fold_iter<from>_to_<to>` as in the seed. */
  id: string;
  type: FoldedBlockType;
  level: Level;
  /** Iteration range, inclusive. */
  from: number;
  to: number;
  /** Entry positions covered, inclusive (exact: unfold returns entries[entryFrom..entryTo]). */
  entryFrom: number;
  entryTo: number;
  /** First and last timestamps (epoch ms) when the entries have them. */
  timeRange?: [number, number];
  summary: { title: string; content: string; outcome: string };
  keywords: string[];
  entities: string[];
  stateChanges: string[];
  retrievability: Retrievability;
  /** What the block shows at its level (L0: empty, the entries themselves are shown). */
  text: string;
  /** Tokens of the source and of the block at its level. */
  tokens: { original: number; folded: number };
  /** FNV-1a over the covered entries' JSON: the summary cache key (F12). */
  sourceHash: string;
  children: FoldedBlock[];
}

export type FoldTrigger = 'pressure' | 'critical' | 'periodic' | 'semantic' | 'recall-explicit' | 'recall-implicit' | 'recall-error' | 'fade' | 'touch';

export interface FoldEvent {
  iteration: number;
  trigger: FoldTrigger;
  /** What was done: 'fold', 'fold-oldest-l1', 'nothing-to-fold', 'recall', 'recall-skipped', 'fade', 'near' (F2: iterations one level nearer). */
  action: string;
  /** The numbers behind the decision (tokens, ratios, counts). */
  numbers: Record<string, number>;
  /** Block concerned, for recall and fade events. */
  blockId?: string;
  /** Iterations concerned, for `near` events. */
  iterations?: number[];
}

export type ZoneId = 'static' | 'working' | 'short-term' | 'long-term' | 'retrieved' | 'dynamic';

export interface ZoneUsage {
  zone: ZoneId;
  tokens: number;
  budget: number;
}

export type KeyMomentKind = 'error' | 'first-success' | 'state-change' | 'bookmark';

export interface KeyMoment {
  iteration: number;
  kind: KeyMomentKind;
  label: string;
}

/** A folded block expanded into the retrieved zone until it fades (F7): what the timeline draws, plus its tokens. */
export interface Retrieval extends TimelineRetrieval {
  tokens: number;
}

/** The index part of a block, computed from its entries and cached by source hash (F12). */
export interface BlockDigest {
  title: string;
  content: string;
  outcome: string;
  keywords: string[];
  entities: string[];
  stateChanges: string[];
  keyActions: string[];
  errors: number;
  /** Files created, modified or deleted. */
  changedFiles: number;
  /** The facts behind it, so digests of consecutive blocks can be merged (absent for a model's). */
  basis?: DigestBasis;
}

/** The mergeable facts of a digest: files, commands, errors still open, the first request, the last reply. */
export interface DigestBasis {
  request?: string;
  lastReply?: string;
  /** Paths created / modified (created and deleted included) / deleted / only read. */
  created: string[];
  modified: string[];
  deleted: string[];
  read: string[];
  commands: string[];
  /** Failed runs per command (commands that never failed are not listed). */
  failures: Array<{ command: string; count: number }>;
  errors: number;
  /** Unresolved errors: the keys a later success would match, and the message. */
  open: Array<{ keys: string[]; message: string }>;
  /** Keys of calls that succeeded (`tool\u0000target`, `cmd\u0000command`). */
  succeeded: string[];
  /**
   * Calls the lists above do not name (a Task sub-agent, a web search, a grep), per tool in order of
   * first call, so a block of only such calls still says what it did. Absent in older digests.
   */
  others?: Array<{ tool: string; count: number }>;
}

export type SummaryCache = Map<string, BlockDigest>;

export interface FoldRun {
  iterations: Iteration[];
  /** Level of each iteration at the end of the replay. */
  levels: Uint8Array;
  /** Top-level blocks, in order; they tile every iteration (so every entry) exactly once. */
  blocks: FoldedBlock[];
  events: FoldEvent[];
  moments: KeyMoment[];
  partitions: ZoneUsage[];
  retrieved: Retrieval[];
  tokensBefore: number;
  tokensAfter: number;
  /** Digests computed during this run (the rest came from the cache). */
  summariesMade: number;
  /** The cache, with this run's digests added: pass it to the next run to reuse them. */
  cache: SummaryCache;
}
