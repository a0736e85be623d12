/**
 * Retention probes: facts a later call may need (files touched, the user's instructions, the task,
 * errors, exact values, decisions), read from the journal on their own. They never share code with
 * the summarizers they judge (src/core/summarize/), or the scores would flatter them.
 */

export type ProbeCategory = 'artifact' | 'constraint' | 'task' | 'error' | 'identifier' | 'decision';

export const PROBE_CATEGORIES: readonly ProbeCategory[] = ['artifact', 'constraint', 'task', 'error', 'identifier', 'decision'];

/** One fact a context should still carry after a compaction removed its source. */
export interface Probe {
  /** Stable across runs of the same journal: category, source entry id and a hash of the text. */
  id: string;
  category: ProbeCategory;
  /**
   * Finer kind: artifact 'created' | 'modified' | 'deleted' | 'read'; error 'resolved' | 'open';
   * identifier 'url' | 'commit' | 'issue' | 'version' | 'value'; constraint 'must' | 'never' | ...
   */
  kind: string;
  /** What the user sees in the probe list (a path, the instruction sentence, the error line, ...). */
  text: string;
  /** Id and index (in the entries given to `extractProbes`) of the entry the probe was read from. */
  entryId: string;
  entryIndex: number;
  /**
   * Errors: index of the entry where the same tool on the same target later succeeded (resolved
   * from then on); absent while open.
   */
  resolvedAt?: number;
  /** Errors: id of the entry at `resolvedAt` (the successful result that resolved it). */
  resolvedBy?: string;
  /**
   * What must appear in a context for the probe to count as kept, already normalized
   * (`normalizeForMatch`). Each inner list is one alternative; an alternative matches when all its
   * needles are found within one span of the context (see `matchProbe`).
   */
  needles: string[][];
}

/** Whether one context still carries a probe, and where. */
export interface ProbeMatch {
  kept: boolean;
  /** The matching stretch of the context text (original casing), at most ~200 characters. */
  span?: string;
}
