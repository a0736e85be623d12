/**
 * What the fold timeline draws (src/ui/timeline): compact arrays the worker produces from a folding run, never
 * entries. One cell per iteration (its current level), folded blocks as spans (nested blocks on
 * stacked rows), key moments, the blocks recalled into the retrieved zone, and the context
 * window's partitions.
 */

/** L0 full … L4 one line. */
export type Level = 0 | 1 | 2 | 3 | 4;

export interface TimelineBlock {
  id: string;
  level: Level;
  /** Iteration range, inclusive. */
  from: number;
  to: number;
  title: string;
  /** Nesting depth: 0 for top-level blocks; children are drawn one row lower. */
  depth: number;
  tokens: number;
  importance: number;
}

export interface KeyMoment {
  iteration: number;
  kind: 'error' | 'first-success' | 'state-change' | 'bookmark';
  label: string;
}

/** What brought a folded block back: a `query_history` hit, a mention of its files, or an error pointing at it. */
export type RecallTrigger = 'recall-explicit' | 'recall-implicit' | 'recall-error';

/** A folded block expanded into the retrieved zone at the end of the run (it fades at `until`). */
export interface TimelineRetrieval {
  blockId: string;
  /** The recalled block's iteration range, inclusive. */
  from: number;
  to: number;
  /** The level it is expanded at in the zone (L0, or L1 when L0 does not fit the zone's budget). */
  level: Level;
  /** Iteration of the recall. */
  since: number;
  /** Iteration at which it fades unless mentioned again (exclusive end of its stay). */
  until: number;
  trigger: RecallTrigger;
}

export interface Partition {
  zone: 'static' | 'working' | 'short-term' | 'long-term' | 'retrieved' | 'dynamic';
  tokens: number;
  budget: number;
}

export interface TimelineData {
  iterations: number;
  /** Level of each iteration at the end of the run (length = iterations). */
  levels: Uint8Array;
  blocks: TimelineBlock[];
  moments: KeyMoment[];
  /** Blocks in the retrieved zone at the end of the run, in recall order. */
  retrieved: TimelineRetrieval[];
  partitions: Partition[];
}
