/**
 * `foldRun`: the folding replay (seed 003) of a whole run at once: its iterations pushed one by one
 * through a `FoldSession`, and the run as of the last one. A caller that follows a live session
 * keeps the session and pushes each new iteration instead (see session.ts).
 */
import type { Entry } from '../journal/entry.ts';
import { getEstimator, type TokenCounter } from '../tokens/counters.ts';
import type { TokenIndex } from '../tokens/prefix-sums.ts';
import { toIterations } from './iterations.ts';
import { parseFoldOptions, type FoldOptions } from './options.ts';
import { FoldSession } from './session.ts';
import type { FoldRun, SummaryCache } from './types.ts';

export class FoldInputError extends Error {
  override name = 'FoldInputError';
}

function isTokenIndex(tokens: TokenIndex | ArrayLike<number>): tokens is TokenIndex {
  return typeof (tokens as TokenIndex).countAt === 'function';
}

/** A session with parsed options; `summaries` is the digest cache of an earlier run (F12). */
export function createFoldSession(
  options: Partial<FoldOptions> | Record<string, unknown> = {},
  summaries: SummaryCache = new Map(),
  counter: TokenCounter = getEstimator('chars4'),
): FoldSession {
  return new FoldSession(parseFoldOptions(options as Record<string, unknown>), summaries, counter);
}

/**
 * Pushes the iterations of `entries` after the ones `session` already holds (`entries` extends the
 * entries it was given before), up to `until` iterations in all when given, calling `after` with
 * each iteration's number once it is pushed.
 */
export function pushIterations(session: FoldSession, entries: readonly Entry[], counts: ArrayLike<number>, { until = Infinity, after }: { until?: number; after?: (iteration: number) => void } = {}): void {
  if (counts.length !== entries.length) throw new FoldInputError(`Token counts cover ${counts.length} entries but the run has ${entries.length}; count the same entries.`);
  const done = session.entries.length;
  if (entries.length < done || (done > 0 && entries[done - 1] !== session.entries[done - 1] && entries[done - 1]?.id !== session.entries[done - 1]?.id)) {
    throw new FoldInputError(`These entries do not continue the ${done} the session already folded; start a new session.`);
  }
  for (const it of toIterations(entries.slice(done))) {
    if (session.iterations >= until) return;
    const from = done + it.from;
    const to = done + it.to;
    session.push(entries.slice(from, to + 1), Array.from({ length: to - from + 1 }, (_, k) => counts[from + k] ?? 0));
    after?.(session.iterations - 1);
  }
}

/**
 * Replays the folding of a run. `tokens` holds one count per entry (a TokenIndex or plain array);
 * `summaries` is the digest cache of an earlier run (F12), returned with this run's additions;
 * `counter` counts the folded texts (default chars/4, use the one `tokens` was counted with).
 */
export function foldRun(
  entries: readonly Entry[],
  tokens: TokenIndex | ArrayLike<number>,
  options: Partial<FoldOptions> | Record<string, unknown> = {},
  summaries: SummaryCache = new Map(),
  counter: TokenCounter = getEstimator('chars4'),
): FoldRun {
  const counts: ArrayLike<number> = isTokenIndex(tokens) ? Array.from({ length: tokens.length }, (_, i) => tokens.countAt(i)) : tokens;
  if (counts.length !== entries.length) throw new FoldInputError(`Token counts cover ${counts.length} entries but the run has ${entries.length}; count the same entries.`);
  const session = createFoldSession(options, summaries, counter);
  pushIterations(session, entries, counts);
  return session.snapshot();
}
