/**
 * Counts read off a plan and a context after every compaction (entries per fate, context items
 * kept from the journal, tokens the compressions save). A replay compacts at nearly every call
 * with plans as long as the branch; a strategy that knows these counts as it builds the lists
 * records them here, and everyone else counts once per list.
 */
import type { Compression, ContextEntry, Fate } from './types.ts';

const fateCounts = new WeakMap<readonly Fate[], Record<Fate, number>>();
const keptItems = new WeakMap<readonly ContextEntry[], number>();
const savings = new WeakMap<readonly Compression[], number>();

/** How many entries got each fate. */
export function countFates(fates: readonly Fate[]): Record<Fate, number> {
  const known = fateCounts.get(fates);
  if (known) return { ...known };
  let keep = 0;
  let drop = 0;
  let summarize = 0;
  let compress = 0;
  for (const fate of fates) {
    if (fate === 'keep') keep++;
    else if (fate === 'compress') compress++;
    else if (fate === 'drop') drop++;
    else summarize++;
  }
  const counts = { keep, summarize, compress, drop };
  fateCounts.set(fates, counts);
  return { ...counts };
}

/** Records the fate counts of a list its maker counted as it filled it (it must not change after). */
export function knownFateCounts(fates: readonly Fate[], counts: Record<Fate, number>): void {
  fateCounts.set(fates, { keep: counts.keep, summarize: counts.summarize, compress: counts.compress, drop: counts.drop });
}

/** Items of a context that are journal entries, kept or rewritten (not summaries or fixed text). */
export function countKeptItems(entries: readonly ContextEntry[]): number {
  let n = keptItems.get(entries);
  if (n === undefined) {
    n = 0;
    for (const e of entries) if (e.origin === 'journal' || e.origin === 'compressed') n++;
    keptItems.set(entries, n);
  }
  return n;
}

export function knownKeptItems(entries: readonly ContextEntry[], n: number): void {
  keptItems.set(entries, n);
}

/** Tokens the compressions save (before less after). */
export function compressionSavings(compressions: readonly Compression[]): number {
  let n = savings.get(compressions);
  if (n === undefined) {
    n = compressions.reduce((sum, c) => sum + c.tokensBefore - c.tokensAfter, 0);
    savings.set(compressions, n);
  }
  return n;
}

export function knownCompressionSavings(compressions: readonly Compression[], n: number): void {
  savings.set(compressions, n);
}
