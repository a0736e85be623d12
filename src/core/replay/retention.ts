/**
 * The one retention figure of a replay: per category, how many of the probes whose source left
 * the verbatim context the final context still carries, and all categories together. The Compare
 * totals table, its probe list, the CSV export and `eval --json` all read it from here, so they
 * cannot disagree.
 */
import { PROBE_CATEGORIES } from '../probes/types.ts';
import { scoreOf } from './scoring.ts';
import type { ProbeOutcome, ProbeScores } from './types.ts';

export interface Retention {
  byCategory: ProbeScores;
  all: { kept: number; total: number };
}

/** Retention of a replay's probe outcomes (see the module comment). */
export function retention(outcomes: readonly ProbeOutcome[]): Retention {
  const byCategory = scoreOf(outcomes);
  let kept = 0;
  let total = 0;
  for (const category of PROBE_CATEGORIES) {
    kept += byCategory[category].kept;
    total += byCategory[category].total;
  }
  return { byCategory, all: { kept, total } };
}
