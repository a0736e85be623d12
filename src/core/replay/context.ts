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
import type { ContextPart } from './scoring.ts';
import { DeltaWriter } from './compaction-context.ts';
import { MadeCounts } from './made-counts.ts';
import { sharedPrefix } from '../strategies/context-builder.ts';
import type { ContextDelta, ContextRef } from './types.ts';

type MadeRef = Exclude<ContextRef, { origin: 'journal' }>;

/** What is known of one made entry object: its count, and its probe key per origin. */
interface MadeFacts {
  tokens?: number;
  keys?: Partial<Record<MadeRef['origin'], string>>;
}

export class ReplayContext {
  /** What the last compaction assembled (empty before the first one). Updated in place by `apply`: copy it to keep it. */
  refs: ContextRef[] = [];
  /** Tokens of `refs`, counter units. */
  refTokens = 0;
  /** Input index of the first recorded entry appended after `refs`. */
  appendFrom = 0;
  private readonly indexOf: Map<string, number>;
  /** One reference per journal entry by input index, shared by every context that holds it. */
  private readonly journalAt: Array<ContextRef | undefined>;
  /** References to ids that are not on the branch (kept as the strategy gave them). */
  private readonly strayRefs = new Map<string, ContextRef>();
  /** Tokens of made entries, each block text counted once: a strategy re-makes the same placeholders and summaries at every compaction. */
  private readonly madeCounts: MadeCounts;
  /** Ids of made texts (see `textId`). */
  private readonly textIds = new Map<string, number>();
  /** Tokens and probe key of a made entry object (a strategy hands back the same rewritten object while it stays the same). */
  private readonly madeByObject = new WeakMap<Entry, MadeFacts>();
  /** The items `refs` were made from (a strategy's context entries, never edited). */
  private items: readonly ContextEntry[] = [];
  /** Per item of `refs`: its input index (journal entries on the branch) or -1; refSum[k]: tokens of the first k items. */
  private refIndex = new Int32Array(0);
  private refSum = new Float64Array(1);
  /** marks[i] === stamp: input entry i is in the context being applied. */
  private readonly marks: Int32Array;
  /** where[i]: position of input entry i in the context before the compaction (valid when placed[i] === stamp). */
  private readonly where: Int32Array;
  private readonly placed: Int32Array;
  private stamp = 0;

  constructor(private readonly input: CompactionInput) {
    this.indexOf = new Map(input.entries.map((entry, index) => [entry.id, index]));
    this.madeCounts = new MadeCounts(input.counter);
    this.journalAt = new Array<ContextRef | undefined>(input.entries.length);
    this.marks = new Int32Array(input.entries.length);
    this.where = new Int32Array(input.entries.length);
    this.placed = new Int32Array(input.entries.length);
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

  /**
   * Takes what a compaction at `end` assembled. Returns the journal ids that left the verbatim
   * context, in context order, and the new context as a change to the one before it (the last
   * compaction's plus the entries recorded since: see `ContextDelta`).
   */
  apply(context: CompactedContext, end: number): { removed: string[]; delta: ContextDelta } {
    const entries = this.input.entries;
    const oldItems = this.items;
    const items = context.entries;
    const from = this.appendFrom;
    const count = this.refs.length;
    const oldLength = count + Math.max(0, end - from);
    // The items the strategy handed back unchanged at the start (all but the newest, for masking)
    // keep their references, indices and counts where they are; the lists are continued in place
    // from there (`refs` is never handed out), so a compaction that changes little costs little.
    const limit = Math.min(items.length, count);
    // A context the builder continued from the previous one shares its first items: not compared again.
    let same = Math.min(sharedPrefix(items, oldItems), limit);
    while (same < limit && items[same] === oldItems[same]) same++;
    const old = this.refs.slice(same);
    const oldIndex = this.refIndex.slice(same, count);
    const oldSum = this.refSum.slice(same, count + 1);
    const stamp = ++this.stamp;
    // Where each journal entry of the context before sits (past the common start, as positions in
    // `old`): the rest of `refs`, then every entry appended since.
    for (let q = 0; q < old.length; q++) {
      const i = oldIndex[q]!;
      if (i >= 0) {
        this.where[i] = q;
        this.placed[i] = stamp;
      }
    }
    for (let i = from; i < end; i++) {
      this.where[i] = old.length + i - from;
      this.placed[i] = stamp;
    }
    const refs = this.refs;
    if (this.refIndex.length < items.length) this.refIndex = grow(this.refIndex, items.length, Int32Array);
    if (this.refSum.length < items.length + 1) this.refSum = grow(this.refSum, items.length + 1, Float64Array);
    const refIndex = this.refIndex;
    /** sum[k]: tokens of the first k items. */
    const sum = this.refSum;
    const delta = new DeltaWriter();
    /** Position in `old` (the base past the common start). */
    let p = 0;
    /** Base items kept since the last edit written. */
    let kept = same;
    let next = 0;
    for (let k = same - 1; k >= 0 && next === 0; k--) if (refIndex[k]! >= 0) next = refIndex[k]! + 1;
    let tokens = sum[same]!;
    for (let k = same; k < items.length; k++) {
      const item = items[k]!;
      let ref: ContextRef;
      let index = -1;
      let n = 0;
      if (p < old.length && item === oldItems[same + p]) {
        // The very item the previous context had here (strategies reuse them): same reference and count.
        ref = old[p]!;
        index = oldIndex[p]!;
        n = oldSum[p + 1]! - oldSum[p]!;
        if (index >= 0) {
          this.marks[index] = stamp;
          next = index + 1;
        }
        kept++;
        p++;
      } else if (item.origin === 'journal') {
        // Contexts keep journal entries in input order: look just after the previous one first.
        const entry = item.entry;
        let at: number | undefined = next;
        const stop = Math.min(next + 4, entries.length);
        while (at < stop && entries[at] !== entry) at++;
        // Not found nearby, or a copy (the replay lowers recorded usage on one): by id.
        if (at === stop) at = this.indexOf.get(entry.id);
        if (at === undefined) {
          ref = this.strayRef(entry.id);
          delta.keep(kept);
          kept = 0;
          delta.insert(ref);
        } else {
          index = at;
          next = index + 1;
          ref = this.journalRef(index);
          n = this.input.tokens.countAt(index);
          this.marks[index] = stamp;
          const was = this.placed[index] === stamp ? this.where[index]! : -1;
          if (was === p) {
            kept++;
            p++;
          } else if (was > p) {
            delta.keep(kept);
            kept = 1;
            delta.skip(was - p);
            p = was + 1;
          } else {
            delta.keep(kept);
            kept = 0;
            delta.insert(ref);
          }
        }
      } else {
        const prior = p < old.length ? old[p]! : undefined;
        if (prior && prior.origin === item.origin && prior.entry === item.entry && sameReplaces(prior.replaces, item.replaces)) {
          // The same made entry in the same place: reuse its reference and count.
          ref = prior;
          n = oldSum[p + 1]! - oldSum[p]!;
          kept++;
          p++;
        } else {
          ref = this.madeRef(item);
          n = this.made(item.entry).tokens ?? this.countMade(item.entry);
          delta.keep(kept);
          kept = 0;
          delta.insert(ref);
        }
      }
      refs[k] = ref;
      refIndex[k] = index;
      tokens += n;
      sum[k + 1] = tokens;
    }
    // Written in place past the common start; one trim when the context got shorter.
    refs.length = items.length;
    delta.keep(kept);
    if (same + p < oldLength) delta.skip(oldLength - same - p);
    const removed: string[] = [];
    for (let q = 0; q < old.length; q++) {
      const index = oldIndex[q]!;
      if (index >= 0 && this.marks[index] !== stamp) removed.push(entries[index]!.id);
    }
    for (let i = from; i < end; i++) if (this.marks[i] !== stamp) removed.push(entries[i]!.id);
    this.items = items;
    this.refTokens = tokens;
    this.appendFrom = end;
    return { removed, delta: delta.ops };
  }

  /** The context with the first `end` entries recorded, as references. */
  snapshot(end: number): ContextRef[] {
    const out = this.refs.slice();
    for (let i = this.appendFrom; i < end; i++) out.push(this.journalRef(i));
    return out;
  }

  /** A context's entries as parts for the probe checker, keyed so an unchanged entry is normalized once; made lazily (the checker stops once every probe is found). */
  *parts(refs: readonly ContextRef[]): Generator<ContextPart> {
    for (const ref of refs) {
      const entry = this.entryOf(ref);
      const text = () => (entry ? entryText(entry) : '');
      if (ref.origin === 'journal') {
        yield { key: `j:${ref.entryId}`, text, origin: 'journal', ...(entry ? { entry } : {}) };
        continue;
      }
      const keys = (this.made(ref.entry).keys ??= {});
      const key = (keys[ref.origin] ??= `m:${ref.origin}:${this.textId(text())}`);
      yield { key, text, origin: ref.origin, entry: ref.entry };
    }
  }

  entryOf(ref: ContextRef): Entry | undefined {
    if (ref.origin !== 'journal') return ref.entry;
    const index = this.indexOf.get(ref.entryId);
    return index === undefined ? undefined : this.input.entries[index];
  }

  private journalRef(index: number): ContextRef {
    let ref = this.journalAt[index];
    if (!ref) this.journalAt[index] = ref = { origin: 'journal', entryId: this.input.entries[index]!.id };
    return ref;
  }

  private strayRef(entryId: string): ContextRef {
    let ref = this.strayRefs.get(entryId);
    if (!ref) this.strayRefs.set(entryId, (ref = { origin: 'journal', entryId }));
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

  /** A number per distinct made text: a made part's probe key names its text without holding it (the lookup is by the strategy's own string). */
  private textId(text: string): number {
    let id = this.textIds.get(text);
    if (id === undefined) this.textIds.set(text, (id = this.textIds.size));
    return id;
  }

  private countMade(entry: Entry): number {
    const tokens = this.madeCounts.count(entry);
    this.made(entry).tokens = tokens;
    return tokens;
  }
}

function sameReplaces(a: ContextEntry['replaces'], b: ContextEntry['replaces']): boolean {
  return a === b || (a !== undefined && b !== undefined && a.fromId === b.fromId && a.toId === b.toId && a.count === b.count);
}

function grow<T extends Int32Array | Float64Array>(array: T, size: number, make: new (length: number) => T): T {
  const next = new make(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}
