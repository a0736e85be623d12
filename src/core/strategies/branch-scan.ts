/**
 * Facts about a branch gathered one entry at a time and kept per branch array, so a trigger asked
 * before every call of a replay (one array that grows by appends) reads them in O(1) instead of
 * walking the history again. Entries are never edited once on a branch, so a grown array only adds
 * its new entries; a copy of the branch read last (a compaction copies the prefix its trigger was
 * just asked about) is checked entry by entry and shares its facts; any other array is scanned
 * from scratch.
 */
import type { Entry } from '../journal/entry.ts';

/** What a strategy gathers: `add` sees each entry once, in order. */
export interface BranchFacts {
  add(entry: Entry, index: number): void;
}

interface Scanned<F> {
  facts: F;
  entries: Entry[];
}

/** Same entry, or the same entry with other usage figures (a replay lowers recorded usage on a copy). */
export function sameEntry(a: Entry, b: Entry): boolean {
  return a === b || (a.id === b.id && a.blocks === b.blocks && a.role === b.role && a.kind === b.kind && a.flags === b.flags);
}

/** The branch holds the scanned entries from..to-1. */
function holds(scanned: Scanned<unknown>, entries: readonly Entry[], from: number, to: number): boolean {
  if (entries.length < to) return false;
  for (let i = from; i < to; i++) if (!sameEntry(entries[i]!, scanned.entries[i]!)) return false;
  return true;
}

export class BranchScans<F extends BranchFacts> {
  private readonly byBranch = new WeakMap<readonly Entry[], { scanned: Scanned<F>; length: number }>();
  private latest: Scanned<F> | undefined;

  constructor(private readonly make: () => F) {}

  /**
   * The facts of `entries`. Facts that depend on values a replay may lower on its copy (recorded
   * usage) must be read from the branch itself, not kept: only indices and entry shapes are.
   */
  of(entries: readonly Entry[]): F {
    const known = this.byBranch.get(entries);
    let scanned: Scanned<F>;
    if (known && holds(known.scanned, entries, known.length, known.scanned.entries.length)) scanned = known.scanned;
    else if (this.latest && holds(this.latest, entries, 0, this.latest.entries.length)) scanned = this.latest;
    else scanned = { facts: this.make(), entries: [] };
    for (let i = scanned.entries.length; i < entries.length; i++) {
      scanned.entries.push(entries[i]!);
      scanned.facts.add(entries[i]!, i);
    }
    this.byBranch.set(entries, { scanned, length: entries.length });
    this.latest = scanned;
    return scanned.facts;
  }
}
