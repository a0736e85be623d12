/**
 * What pi's trigger reads from the whole branch, gathered once per entry (branch-scan.ts): where
 * each id first occurs (the previous compaction's first kept entry), the system messages before a
 * boundary, and the newest reply whose recorded usage pi trusts. A replay asks the trigger before
 * every call, so each of these is O(1) there instead of a walk over the history.
 */
import type { Entry } from '../../journal/entry.ts';
import { BranchScans, type BranchFacts } from '../branch-scan.ts';

/** A reply whose usage pi trusts: an assistant message that was neither aborted nor an error (those have no valid usage). */
export function trustsUsage(entry: Entry): boolean {
  return entry.role === 'assistant' && entry.kind === 'message' && Boolean(entry.usage)
    && !entry.flags?.aborted && !entry.flags?.error && !entry.flags?.synthetic;
}

export class PiBranchFacts implements BranchFacts {
  private readonly ids = new Map<string, number>();
  /** Indices of system messages, ascending. */
  readonly system: number[] = [];
  /** Per index: the newest entry at or before it whose usage pi trusts, or -1. */
  private readonly trusted: number[] = [];

  add(entry: Entry, index: number): void {
    if (!this.ids.has(entry.id)) this.ids.set(entry.id, index);
    if (entry.role === 'system' && entry.kind === 'message') this.system.push(index);
    this.trusted.push(trustsUsage(entry) ? index : index > 0 ? this.trusted[index - 1]! : -1);
  }

  /** First index of an entry with this id, or -1 (as `findIndex`). */
  indexOf(id: string): number {
    return this.ids.get(id) ?? -1;
  }

  /** The newest entry at or before `index` whose usage pi trusts, or -1. */
  trustedAtOrBefore(index: number): number {
    return index < 0 ? -1 : this.trusted[index]!;
  }
}

const scans = new BranchScans(() => new PiBranchFacts());

export function piBranchFacts(entries: readonly Entry[]): PiBranchFacts {
  return scans.of(entries);
}
