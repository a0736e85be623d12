/**
 * Live folding sessions in the worker, so the replay does not start over at every step: moving the
 * replay forward pushes only the new iterations into the session kept for that branch and those
 * options, and a block the user expands at the current position is recalled there. Moving back,
 * other options or a recall earlier than the position replays from the start (digests are reused
 * from the summary cache either way).
 */
import { createFoldSession, pushIterations, type FoldSession } from '../../core/folding/index.ts';
import type { Entry } from '../../core/journal/entry.ts';
import type { SummaryCache } from '../../core/folding/types.ts';
import type { TokenCounter } from '../../core/tokens/counters.ts';
import type { RecallRequest } from './fold-protocol.ts';

export type { RecallRequest } from './fold-protocol.ts';

/** Sessions kept at most (one per conversation and options; the oldest goes first). */
export const MAX_SESSIONS = 3;

interface Kept {
  key: string;
  session: FoldSession;
  applied: RecallRequest[];
  /** Recalls whose block was not there (reported once to the page). */
  missed: RecallRequest[];
}

const same = (a: RecallRequest, b: RecallRequest) => a.iteration === b.iteration && a.blockId === b.blockId;

export class FoldSessions {
  private readonly kept: Kept[] = [];

  /**
   * The session of `key` holding exactly iterations 0..iterations-1 of `entries`, with the recalls
   * applied at their iterations. `made` is how many digests this call computed.
   */
  advance(key: string, entries: readonly Entry[], counts: ArrayLike<number>, iterations: number, recalls: readonly RecallRequest[], options: Record<string, unknown>, cache: SummaryCache, counter: TokenCounter): { session: FoldSession; made: number; missed: RecallRequest[] } {
    const wanted = [...recalls].filter((r) => r.iteration < iterations).sort((a, b) => a.iteration - b.iteration);
    let kept = this.kept.find((k) => k.key === key);
    if (kept && !this.canContinue(kept, iterations, wanted)) {
      this.kept.splice(this.kept.indexOf(kept), 1);
      kept = undefined;
    }
    if (!kept) {
      kept = { key, session: createFoldSession(options, cache, counter), applied: [], missed: [] };
      this.kept.push(kept);
      if (this.kept.length > MAX_SESSIONS) this.kept.shift();
    }
    const { session } = kept;
    const made = session.summariesMade;
    const recallAt = (iteration: number) => {
      for (const recall of wanted) {
        if (recall.iteration !== iteration || kept.applied.some((r) => same(r, recall))) continue;
        kept.applied.push(recall);
        if (!session.recallBlock(recall.blockId)) kept.missed.push(recall);
      }
    };
    if (session.iterations > 0) recallAt(session.iterations - 1);
    pushIterations(session, entries, counts, { until: iterations, after: recallAt });
    return { session, made: session.summariesMade - made, missed: [...kept.missed] };
  }

  /** Forward only, and every recall before the current position already applied in the same order. */
  private canContinue(kept: Kept, iterations: number, wanted: readonly RecallRequest[]): boolean {
    const done = kept.session.iterations;
    if (done > iterations) return false;
    const before = wanted.filter((r) => r.iteration < done - 1);
    const appliedBefore = kept.applied.filter((r) => r.iteration < done - 1);
    if (before.length !== appliedBefore.length || !before.every((r, i) => same(r, appliedBefore[i]!))) return false;
    // A recall the page dropped at the current position cannot be taken back without a replay.
    return kept.applied.filter((r) => r.iteration === done - 1).every((r) => wanted.some((w) => same(w, r)));
  }
}
