/**
 * What the layered trigger (L7) reads from the whole branch, gathered once per entry
 * (branch-scan.ts): the last reply that recorded usage, the last user message and the last one the
 * user typed, how many history messages there are, and where each id first occurs. A replay asks
 * the trigger before every call, so each is O(1) there instead of a walk over the history.
 */
import type { Entry } from '../../journal/entry.ts';
import { BranchScans, type BranchFacts } from '../branch-scan.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import { countEntry } from '../../tokens/entry-tokens.ts';
import { archiveEntry } from './archived-summary.ts';
import { classify, opensTurn } from './turns.ts';

export class LayeredBranchFacts implements BranchFacts {
  private readonly ids = new Map<string, number>();
  /** Newest assistant entry with recorded usage (its figures are read from the branch: a replay may lower them), or -1. */
  lastUsage = -1;
  /** Newest user message, and newest one that opens a turn, or -1. */
  lastUser = -1;
  lastOpener = -1;
  /** L3 entries so far: conversation and archived summaries. */
  messages = 0;
  /** `pairPartners` of the branch, kept as entries come (read it, never change it). */
  readonly partners = new Map<number, number[]>();
  private readonly callAt = new Map<string, number>();

  add(entry: Entry, index: number): void {
    if (!this.ids.has(entry.id)) this.ids.set(entry.id, index);
    if (entry.role === 'assistant' && entry.usage) this.lastUsage = index;
    if (entry.role === 'user' && entry.kind === 'message') {
      this.lastUser = index;
      if (opensTurn(entry)) this.lastOpener = index;
    }
    const cls = classify(entry);
    if (cls === 'conversation' || cls === 'archive') this.messages++;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call' && !this.callAt.has(block.callId)) this.callAt.set(block.callId, index);
      if (block.type === 'tool_result') {
        const call = this.callAt.get(block.callId);
        if (call !== undefined) this.link(call, index);
      }
    }
  }

  private link(a: number, b: number): void {
    if (a === b) return;
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const list = this.partners.get(x);
      if (!list) this.partners.set(x, [y]);
      else if (!list.includes(y)) list.push(y);
    }
  }

  /** First index of an entry with this id, or -1 (as `findIndex`). */
  indexOf(id: string): number {
    return this.ids.get(id) ?? -1;
  }
}

const scans = new BranchScans(() => new LayeredBranchFacts());

export function layeredBranchFacts(entries: readonly Entry[]): LayeredBranchFacts {
  return scans.of(entries);
}

/** Tokens of the archived summaries per summary list and counter: the same list is asked about before every call until the next archive. */
const summaryTokens = new WeakMap<readonly string[], { counter: unknown; length: number; tokens: number }>();

export function archivedTokens(summaries: readonly string[], counter: { count(text: string): number }): number {
  const known = summaryTokens.get(summaries);
  if (known && known.counter === counter && known.length === summaries.length) return known.tokens;
  const tokens = summaries.reduce((sum, text) => sum + counter.count(text), 0);
  summaryTokens.set(summaries, { counter, length: summaries.length, tokens });
  return tokens;
}

/** Tokens of each archived summary's text per counter: every later run re-counts all the earlier summaries. */
const textTokens = new WeakMap<object, Map<string, number>>();

/** Tokens of an archived summary entry with this text (its only block), remembered. */
export function summaryEntryTokens(text: string, counter: TokenCounter): number {
  let byText = textTokens.get(counter);
  if (!byText) {
    byText = new Map();
    textTokens.set(counter, byText);
  }
  let tokens = byText.get(text);
  if (tokens === undefined) {
    tokens = countEntry(archiveEntry('count', text, undefined), counter).total;
    if (byText.size > 10_000) byText.clear();
    byText.set(text, tokens);
  }
  return tokens;
}
