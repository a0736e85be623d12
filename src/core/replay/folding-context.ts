/**
 * The context a folding memory sends a model, as a replay keeps it (`ContextRef`s): an L0 block's
 * entries verbatim, an L1 block's entries with their tool outputs elided (as the fold counts them),
 * an L2-L4 block as one summary entry of the text its level shows (the system messages it covers
 * kept verbatim: the static zone), then the retrieved zone's blocks and the dynamic slot. Also which
 * journal entries such a context holds verbatim, and its parts for the probe checker.
 */
import type { Entry, ToolCallBlock } from '../journal/entry.ts';
import { entryText } from '../journal/entry.ts';
import type { FoldedBlock, Iteration, Retrieval } from '../folding/types.ts';
import { compressEntry } from '../strategies/layered/tool-compression.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { ContextPart } from './scoring.ts';
import type { ContextRef } from './types.ts';

/** A context built from a fold, with what it is made of. */
export interface FoldContext {
  refs: ContextRef[];
  /** Input indices of the journal entries it holds verbatim. */
  verbatim: Set<number>;
  /** Entries shown with their tool outputs elided (L1), and the tokens that saved. */
  compressed: { count: number; tokensSaved: number };
  /** The L2-L4 blocks it shows as a summary entry, with the text shown. */
  folded: Array<{ block: FoldedBlock; text: string }>;
}

/** Id of the dynamic slot's entry. */
export const DYNAMIC_SLOT_ID = 'fold-dynamic-slot';

export class FoldContextBuilder {
  /** Tool calls by id, first one wins (as the fold session elides results). */
  private readonly calls = new Map<string, ToolCallBlock>();
  /** An entry's L1 form, by input index (null: shown verbatim). */
  private readonly elided = new Map<number, { entry: Entry; saved: number } | null>();
  /** Input indices of the system messages, ascending (a folded block keeps them verbatim). */
  private readonly system: number[] = [];

  constructor(
    private readonly entries: readonly Entry[],
    private readonly counts: ArrayLike<number>,
    private readonly counter: TokenCounter,
  ) {
    entries.forEach((entry, i) => {
      for (const block of entry.blocks) if (block.type === 'tool_call' && !this.calls.has(block.callId)) this.calls.set(block.callId, block);
      if (entry.role === 'system' && entry.kind === 'message') this.system.push(i);
    });
  }

  /** The context of top-level `blocks` (tiling the iterations pushed so far), the retrieved zone and the dynamic slot. */
  build(blocks: readonly FoldedBlock[], retrieved: readonly Retrieval[], its: readonly Iteration[], dynamic: string): FoldContext {
    const out: FoldContext = { refs: [], verbatim: new Set(), compressed: { count: 0, tokensSaved: 0 }, folded: [] };
    for (const block of blocks) {
      if (block.level < 2) this.span(out, block.entryFrom, block.entryTo, block.level);
      else this.summary(out, block);
    }
    for (const r of retrieved) {
      const from = its[r.from]?.from;
      const to = its[r.to]?.to;
      if (from !== undefined && to !== undefined) this.span(out, from, to, r.level);
    }
    if (dynamic) {
      const at = this.entries[Math.max(0, (blocks.at(-1)?.entryTo ?? 0))];
      out.refs.push({ origin: 'synthetic', entry: { id: DYNAMIC_SLOT_ID, index: at?.index ?? 0, parentId: null, role: 'system', kind: 'message', blocks: [{ type: 'text', text: dynamic }], sourceType: 'fold', line: at?.line ?? 0 } });
    }
    return out;
  }

  /** Journal refs of input entries from..to (verbatim, as the appended part of a context). */
  journal(from: number, to: number): ContextRef[] {
    const refs: ContextRef[] = [];
    for (let i = from; i <= to; i++) refs.push({ origin: 'journal', entryId: this.entries[i]!.id });
    return refs;
  }

  /** A context's entries as parts for the probe checker, keyed so an unchanged entry is normalized once. */
  parts(refs: readonly ContextRef[], byId: ReadonlyMap<string, number>): ContextPart[] {
    return refs.map((ref) => {
      if (ref.origin === 'journal') {
        const entry = this.entries[byId.get(ref.entryId) ?? -1];
        return { key: `j:${ref.entryId}`, text: () => (entry ? entryText(entry) : ''), origin: 'journal' as const, ...(entry ? { entry } : {}) };
      }
      const text = entryText(ref.entry);
      return { key: `m:${ref.origin}:${text}`, text: () => text, origin: ref.origin, entry: ref.entry };
    });
  }

  /** Entries from..to at L0 (verbatim) or L1 (tool outputs elided where that is shorter). */
  private span(out: FoldContext, from: number, to: number, level: number): void {
    for (let i = from; i <= to; i++) {
      const l1 = level === 1 ? this.elidedAt(i) : null;
      if (l1) {
        out.refs.push({ origin: 'compressed', entry: l1.entry });
        out.compressed.count++;
        out.compressed.tokensSaved += l1.saved;
      } else {
        out.refs.push({ origin: 'journal', entryId: this.entries[i]!.id });
        out.verbatim.add(i);
      }
    }
  }

  /** An L2-L4 block: its system messages verbatim, then one summary entry of its text. */
  private summary(out: FoldContext, block: FoldedBlock): void {
    let lo = 0;
    let hi = this.system.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.system[mid]! < block.entryFrom) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < this.system.length && this.system[k]! <= block.entryTo; k++) {
      const i = this.system[k]!;
      out.refs.push({ origin: 'journal', entryId: this.entries[i]!.id });
      out.verbatim.add(i);
    }
    if (!block.text) return;
    const first = this.entries[block.entryFrom]!;
    const last = this.entries[block.entryTo]!;
    const entry: Entry = {
      id: `${block.id}@L${block.level}`, index: last.index, parentId: first.parentId, role: 'summary', kind: 'compaction',
      blocks: [{ type: 'text', text: block.text }], sourceType: 'fold', line: last.line,
    };
    out.refs.push({ origin: 'summary', entry, replaces: { fromId: first.id, toId: last.id, count: block.entryTo - block.entryFrom + 1 } });
    out.folded.push({ block, text: block.text });
  }

  /** The L1 form of entry i when eliding its tool outputs makes it shorter (the fold counts the shorter). */
  private elidedAt(i: number): { entry: Entry; saved: number } | null {
    let memo = this.elided.get(i);
    if (memo !== undefined) return memo;
    const entry = this.entries[i]!;
    const compressed = entry.kind === 'message' ? compressEntry(entry, this.calls) : undefined;
    const original = this.counts[i] ?? 0;
    const tokens = compressed ? countEntry(compressed.entry, this.counter).total : original;
    memo = compressed && tokens < original ? { entry: compressed.entry, saved: original - tokens } : null;
    this.elided.set(i, memo);
    return memo;
  }
}
