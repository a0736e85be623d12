/**
 * The context a replay sends: what the last compaction assembled (kept small as references) plus
 * the recorded entries appended since. Its token count is O(1) per call from the input's prefix
 * sums; its entries are handed to the probe checker as parts, each text built only when needed.
 */
import type { CompactedContext, CompactionInput } from '../compaction/types.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { ContextPart } from './scoring.ts';
import type { ContextRef } from './types.ts';

export class ReplayContext {
  /** What the last compaction assembled (empty before the first one). */
  refs: ContextRef[] = [];
  /** Tokens of `refs`, counter units. */
  refTokens = 0;
  /** Input index of the first recorded entry appended after `refs`. */
  appendFrom = 0;
  private readonly indexOf: Map<string, number>;
  /** Tokens of made entries by their text: a strategy re-makes the same placeholders and summaries at every compaction. */
  private readonly madeTokens = new Map<string, number>();

  constructor(private readonly input: CompactionInput) {
    this.indexOf = new Map(input.entries.map((entry, index) => [entry.id, index]));
  }

  /** Tokens of the context sent with the input's first `end` entries recorded. */
  tokensAt(end: number): number {
    return this.refTokens + (end > this.appendFrom ? this.input.tokens.range(this.appendFrom, end - 1) : 0);
  }

  /** Ids of the journal entries the context holds verbatim with the first `end` entries recorded. */
  verbatimIds(end: number): string[] {
    const ids: string[] = [];
    for (const ref of this.refs) if (ref.origin === 'journal') ids.push(ref.entryId);
    for (let i = this.appendFrom; i < end; i++) ids.push(this.input.entries[i]!.id);
    return ids;
  }

  /** Takes what a compaction at `end` assembled; returns the journal ids that left the verbatim context. */
  apply(context: CompactedContext, end: number): string[] {
    const before = this.verbatimIds(end);
    this.refs = context.entries.map((item): ContextRef => (item.origin === 'journal'
      ? { origin: 'journal', entryId: item.entry.id }
      : { origin: item.origin, entry: item.entry, ...(item.replaces ? { replaces: item.replaces } : {}) }));
    this.refTokens = 0;
    for (const ref of this.refs) this.refTokens += this.tokensOf(ref);
    this.appendFrom = end;
    const after = new Set(this.verbatimIds(end));
    return before.filter((id) => !after.has(id));
  }

  /** The context with the first `end` entries recorded, as references. */
  snapshot(end: number): ContextRef[] {
    const appended: ContextRef[] = [];
    for (let i = this.appendFrom; i < end; i++) appended.push({ origin: 'journal', entryId: this.input.entries[i]!.id });
    return [...this.refs, ...appended];
  }

  /** A context's entries as parts for the probe checker, keyed so an unchanged entry is normalized once. */
  parts(refs: readonly ContextRef[]): ContextPart[] {
    return refs.map((ref) => {
      const entry = this.entryOf(ref);
      const text = () => (entry ? entryText(entry) : '');
      return { key: ref.origin === 'journal' ? `j:${ref.entryId}` : `m:${ref.origin}:${text()}`, text };
    });
  }

  entryOf(ref: ContextRef): Entry | undefined {
    if (ref.origin !== 'journal') return ref.entry;
    const index = this.indexOf.get(ref.entryId);
    return index === undefined ? undefined : this.input.entries[index];
  }

  private tokensOf(ref: ContextRef): number {
    if (ref.origin === 'journal') {
      const index = this.indexOf.get(ref.entryId);
      return index === undefined ? 0 : this.input.tokens.countAt(index);
    }
    const key = `${ref.entry.role}\u0000${entryText(ref.entry)}\u0000${ref.entry.blocks.length}`;
    let tokens = this.madeTokens.get(key);
    if (tokens === undefined) {
      tokens = countEntry(ref.entry, this.input.counter).total;
      if (this.madeTokens.size > 50_000) this.madeTokens.clear();
      this.madeTokens.set(key, tokens);
    }
    return tokens;
  }
}
