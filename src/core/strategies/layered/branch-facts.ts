/**
 * What the layered trigger (L7) and plan read from the whole branch, gathered once per entry
 * (branch-scan.ts): the last reply that recorded usage, the last user message and the last one the
 * user typed, how many history messages there are, where each id first occurs, each entry's class,
 * the tool pairs and the whole-turn starts. A replay asks the trigger before every call and plans
 * whenever it fires, so each is O(1) or a binary search there instead of a walk over the history.
 */
import type { Fate } from '../../compaction/types.ts';
import type { Entry, ToolCallBlock } from '../../journal/entry.ts';
import { BranchScans, type BranchFacts } from '../branch-scan.ts';
import type { TokenCounter } from '../../tokens/counters.ts';
import { countEntry } from '../../tokens/entry-tokens.ts';
import { archiveEntry } from './archived-summary.ts';
import { IndexList } from '../num-list.ts';
import { TurnStartList } from './turn-starts.ts';
import { classify, opensTurn, type EntryClass } from './turns.ts';

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
  /** `classify` of each entry. */
  readonly classes: EntryClass[] = [];
  /** Each entry's fate in a plan before anything is decided: conversation and events dropped, system prompts and archives kept. */
  readonly baseFates: Fate[] = [];
  /** The first tool call of each id (`callsById` of the branch). */
  readonly calls = new Map<string, ToolCallBlock>();
  /** Tool pairs as [call, result] indices (call < result), in the order their results came. */
  readonly pairs: Array<readonly [number, number]> = [];
  /** Indices of system prompts and archived summaries: kept whatever the cut. */
  readonly kept = new IndexList();
  /** Indices of harness events. */
  readonly events = new IndexList();
  /** Archived summaries already in the journal. */
  archives = 0;
  /** First conversation entry, or -1. */
  firstConversation = -1;
  /** conversationBefore[i]: conversation entries at indices < i (one more value than entries). */
  private readonly conversationBefore = new IndexList();
  /** Whole-turn starts (`turnStarts` with the branch's pairs). */
  readonly turns = new TurnStartList();

  add(entry: Entry, index: number): void {
    if (!this.ids.has(entry.id)) this.ids.set(entry.id, index);
    const cls = classify(entry);
    this.classes.push(cls);
    this.baseFates.push(cls === 'conversation' || cls === 'event' ? 'drop' : 'keep');
    if (this.conversationBefore.length === 0) this.conversationBefore.push(0);
    this.conversationBefore.push(this.conversationBefore.at(index) + (cls === 'conversation' ? 1 : 0));
    if (cls === 'conversation' && this.firstConversation < 0) this.firstConversation = index;
    if (cls === 'event') this.events.push(index);
    else if (cls !== 'conversation') this.kept.push(index);
    if (cls === 'archive') this.archives++;
    if (opensTurn(entry)) this.turns.open(index);
    if (entry.role === 'assistant' && entry.usage) this.lastUsage = index;
    if (entry.role === 'user' && entry.kind === 'message') {
      this.lastUser = index;
      if (opensTurn(entry)) this.lastOpener = index;
    }
    if (cls === 'conversation' || cls === 'archive') this.messages++;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call' && !this.callAt.has(block.callId)) {
        this.callAt.set(block.callId, index);
        this.calls.set(block.callId, block);
      }
      if (block.type === 'tool_result') {
        const call = this.callAt.get(block.callId);
        if (call !== undefined) this.link(call, index);
      }
    }
  }

  private link(a: number, b: number): void {
    if (a === b) return;
    this.pairs.push(a < b ? [a, b] : [b, a]);
    this.turns.span(Math.min(a, b), Math.max(a, b));
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const list = this.partners.get(x);
      if (!list) this.partners.set(x, [y]);
      else if (!list.includes(y)) list.push(y);
    }
  }

  /** Conversation entries at indices < i. */
  conversationsBefore(i: number): number {
    return this.conversationBefore.at(i);
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

/** Total of `summaryEntryTokens` per summary list and counter: every plan until the next archive asks about the same list. */
const entryTotals = new WeakMap<readonly string[], { counter: unknown; length: number; tokens: number }>();

/** Tokens of the archived summary entries with these texts (as `summaryEntryTokens` counts each). */
export function archivedEntryTokens(summaries: readonly string[], counter: TokenCounter): number {
  const known = entryTotals.get(summaries);
  if (known && known.counter === counter && known.length === summaries.length) return known.tokens;
  let tokens = 0;
  for (const text of summaries) tokens += summaryEntryTokens(text, counter);
  entryTotals.set(summaries, { counter, length: summaries.length, tokens });
  return tokens;
}

/** Counts of journal entries per counter: a plan re-counts the same kept turns at every call. */
const entryCounts = new WeakMap<TokenCounter, WeakMap<Entry, number>>();

/** `countEntry(entry, counter).total`, remembered per entry object (entries are never edited). */
export function entryTokens(entry: Entry, counter: TokenCounter): number {
  let byEntry = entryCounts.get(counter);
  if (!byEntry) entryCounts.set(counter, (byEntry = new WeakMap()));
  let tokens = byEntry.get(entry);
  if (tokens === undefined) byEntry.set(entry, (tokens = countEntry(entry, counter).total));
  return tokens;
}
