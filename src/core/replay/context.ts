/**
 * The context a replay sends: what the last compaction assembled (kept small as references) plus
 * the recorded entries appended since. Its token count is O(1) per call from the input's prefix
 * sums; its entries are handed to the probe checker as parts, each text built only when needed.
 * A strategy that compacts at nearly every call hands back mostly the same entries each time (the
 * same journal entries, the same rewritten objects), so each entry's reference, count and probe
 * key are made once per replay, not once per compaction.
 */
import type { CompactedContext, CompactionInput, ContextEntry } from '../compaction/types.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { ContextPart } from './scoring.ts';
import type { ContextRef } from './types.ts';

type MadeRef = Exclude<ContextRef, { origin: 'journal' }>;

/** What is known of one made entry object: its count, and its probe key per origin. */
interface MadeFacts {
  tokens?: number;
  keys?: Partial<Record<MadeRef['origin'], string>>;
}

export class ReplayContext {
  /** What the last compaction assembled (empty before the first one). */
  refs: ContextRef[] = [];
  /** Tokens of `refs`, counter units. */
  refTokens = 0;
  /** Input index of the first recorded entry appended after `refs`. */
  appendFrom = 0;
  private readonly indexOf: Map<string, number>;
  /** One reference per journal entry, shared by every context that holds it. */
  private readonly journalRefs = new Map<string, ContextRef>();
  /** Tokens of made entries by their text: a strategy re-makes the same placeholders and summaries at every compaction. */
  private readonly madeTokens = new Map<string, number>();
  /** Tokens and probe key of a made entry object (a strategy hands back the same rewritten object while it stays the same). */
  private readonly madeByObject = new WeakMap<Entry, MadeFacts>();
  /** Input indices of the journal entries `refs` holds, ascending when the strategy kept journal order. */
  private refIndices: number[] = [];
  /** marks[i] === stamp: input entry i is in the context being applied. */
  private readonly marks: Int32Array;
  private stamp = 0;

  constructor(private readonly input: CompactionInput) {
    this.indexOf = new Map(input.entries.map((entry, index) => [entry.id, index]));
    this.marks = new Int32Array(input.entries.length);
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

  /** Takes what a compaction at `end` assembled; returns the journal ids that left the verbatim context, in context order. */
  apply(context: CompactedContext, end: number): string[] {
    // Before: the journal entries of `refs`, then every entry appended since, in that order.
    const before = this.refIndices;
    const from = this.appendFrom;
    const refs: ContextRef[] = new Array<ContextRef>(context.entries.length);
    // after: the input indices the new context holds, marked with this compaction's stamp.
    const stamp = ++this.stamp;
    const after = { add: (i: number) => { this.marks[i] = stamp; }, has: (i: number) => this.marks[i] === stamp };
    const indices: number[] = [];
    let tokens = 0;
    context.entries.forEach((item, k) => {
      if (item.origin === 'journal') {
        const index = this.indexOf.get(item.entry.id);
        refs[k] = this.journalRef(item.entry.id);
        if (index !== undefined) {
          after.add(index);
          indices.push(index);
          tokens += this.input.tokens.countAt(index);
        }
      } else {
        refs[k] = this.madeRef(item);
        tokens += this.made(item.entry).tokens ?? this.countMade(item.entry);
      }
    });
    const removed: string[] = [];
    for (const index of before) if (!after.has(index)) removed.push(this.input.entries[index]!.id);
    for (let i = from; i < end; i++) if (!after.has(i)) removed.push(this.input.entries[i]!.id);
    this.refs = refs;
    this.refIndices = indices;
    this.refTokens = tokens;
    this.appendFrom = end;
    return removed;
  }

  /** The context with the first `end` entries recorded, as references. */
  snapshot(end: number): ContextRef[] {
    const appended: ContextRef[] = [];
    for (let i = this.appendFrom; i < end; i++) appended.push(this.journalRef(this.input.entries[i]!.id));
    return [...this.refs, ...appended];
  }

  /** A context's entries as parts for the probe checker, keyed so an unchanged entry is normalized once. */
  parts(refs: readonly ContextRef[]): ContextPart[] {
    return refs.map((ref) => {
      const entry = this.entryOf(ref);
      const text = () => (entry ? entryText(entry) : '');
      if (ref.origin === 'journal') return { key: `j:${ref.entryId}`, text };
      const keys = (this.made(ref.entry).keys ??= {});
      const key = (keys[ref.origin] ??= `m:${ref.origin}:${text()}`);
      return { key, text };
    });
  }

  entryOf(ref: ContextRef): Entry | undefined {
    if (ref.origin !== 'journal') return ref.entry;
    const index = this.indexOf.get(ref.entryId);
    return index === undefined ? undefined : this.input.entries[index];
  }

  private journalRef(entryId: string): ContextRef {
    let ref = this.journalRefs.get(entryId);
    if (!ref) this.journalRefs.set(entryId, (ref = { origin: 'journal', entryId }));
    return ref;
  }

  private madeRef(item: ContextEntry): MadeRef {
    return { origin: item.origin as MadeRef['origin'], entry: item.entry, ...(item.replaces ? { replaces: item.replaces } : {}) };
  }

  private made(entry: Entry): MadeFacts {
    let made = this.madeByObject.get(entry);
    if (!made) this.madeByObject.set(entry, (made = {}));
    return made;
  }

  private countMade(entry: Entry): number {
    const key = `${entry.role}\u0000${entryText(entry)}\u0000${entry.blocks.length}`;
    let tokens = this.madeTokens.get(key);
    if (tokens === undefined) {
      tokens = countEntry(entry, this.input.counter).total;
      if (this.madeTokens.size > 50_000) this.madeTokens.clear();
      this.madeTokens.set(key, tokens);
    }
    this.made(entry).tokens = tokens;
    return tokens;
  }
}
