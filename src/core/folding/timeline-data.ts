/**
 * What the fold timeline draws (src/ui/timeline): compact arrays the worker produces from a folding run, never
 * entries. One cell per iteration (its current level), folded blocks as spans (nested blocks on
 * stacked rows), key moments, and the context window's partitions.
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
  partitions: Partition[];
}
