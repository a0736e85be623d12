/**
 * The history Augment works on (seed 000 §2.2, A8): the branch's exchanges, sized in characters
 * (or the chosen counter), and the API history — starting at the last summary node of the current
 * version, which stands for everything before it. A summary of another version is filtered out;
 * with summarization disabled every summary node is removed and the whole branch is sent.
 */
import type { Entry } from '../../journal/entry.ts';
import type { CompactionInput } from '../../compaction/types.ts';
import { getEstimator } from '../../tokens/counters.ts';
import { AugmentBranchIndex, branchIndex, charsOfEntry } from './branch-index.ts';
import { exchangeSizes, segmentExchanges, type Exchange } from './exchanges.ts';
import { fillSupervisor } from './node.ts';
import { effectiveTemplate, type AugmentOptions } from './params.ts';

/** The previous compaction as a summary node of the API history. */
export interface PreviousNode {
  /** Index of the first entry after the node (the previous run's first kept entry). */
  boundary: number;
  version: number;
  nodeText: string;
  ackText: string;
  /** The model-written summary inside the node (what nested mode feeds forward). */
  summary: string;
  sequenceId: number;
}

/** One element of the API history: an exchange of the branch or the previous summary node. */
export type HistoryItem =
  | { kind: 'exchange'; exchange: Exchange; ordinal: number; size: number }
  | { kind: 'previous'; node: PreviousNode; size: number };

export interface HistoryView {
  /** Size of entry i in the chosen unit. */
  sizeOf: (index: number) => number;
  /** Characters of entry i (what `zee` measures, whatever the unit). */
  charsOf: (index: number) => number;
  /** "chars" or "<counter> tokens", for notes. */
  unit: string;
  /** Whether sizes are in the input's counter (sizeUnit tokens). */
  byCounter: boolean;
  previous?: PreviousNode;
  /** Oldest first: pinned exchanges before the previous node, the node, then later exchanges. */
  items: HistoryItem[];
  totalSize: number;
  isPinned: (entry: Entry) => boolean;
  notes: string[];
}

const CHARS = getEstimator('chars');
/** The per-entry counts gathered for one branch array, so replanning the same array skips even the lookups. */
const charsByBranch = new WeakMap<readonly Entry[], Float64Array>();

/** Characters of every entry of a branch. */
function entryChars(entries: readonly Entry[]): Float64Array {
  let chars = charsByBranch.get(entries);
  if (chars === undefined || chars.length !== entries.length) {
    chars = new Float64Array(entries.length);
    for (let i = 0; i < entries.length; i++) chars[i] = charsOfEntry(entries[i]!);
    charsByBranch.set(entries, chars);
  }
  return chars;
}

type ResolvedNode = Omit<PreviousNode, 'sequenceId'> & { sequenceId?: number };

function resolvePrevious(input: CompactionInput, options: AugmentOptions, notes: string[], indexOf: (id: string) => number): ResolvedNode | undefined {
  const previous = input.previous;
  if (!previous) return undefined;
  if (!options.enabled) {
    notes.push('History summarization is disabled (enabled = false): every summary node is removed and the whole branch is sent (§2.2).');
    return undefined;
  }
  if (previous.strategy !== 'augment') {
    notes.push(`The previous compaction was made by the ${previous.strategy} strategy, not an Augment summary node: it is not used.`);
    return undefined;
  }
  // A run that made no summary leaves no node behind.
  if (previous.summaries.length === 0 && previous.state?.nodeText === undefined) return undefined;
  const state = previous.state ?? {};
  const version = typeof state.version === 'number' ? state.version : undefined;
  if (version !== options.historySummaryVersion) {
    notes.push(`The previous summary node is version ${version ?? 'unknown'}; only version ${options.historySummaryVersion} nodes are used (§2.2), so it is filtered out and the history is sent from the start.`);
    return undefined;
  }
  const find = (id: unknown) => (typeof id === 'string' ? indexOf(id) : -1);
  let boundary = find(previous.firstKeptEntryId);
  if (boundary < 0) {
    const last = find(state.lastReplacedEntryId);
    if (last >= 0) boundary = last + 1;
  }
  if (boundary < 0) {
    notes.push('The previous summary node replaced entries that are not on this branch: it is not used.');
    return undefined;
  }
  const summary = previous.summaries[previous.summaries.length - 1] ?? '';
  const nodeText = typeof state.nodeText === 'string' ? state.nodeText : fillSupervisor(effectiveTemplate(options).template, { summary, abridged_history: '' });
  const ackText = typeof state.ackText === 'string' ? state.ackText : options.summaryNodeResponseMessage;
  return { boundary, version, nodeText, ackText, summary, ...(typeof state.sequenceId === 'number' ? { sequenceId: state.sequenceId } : {}) };
}

/**
 * The history view, from the branch's index (O(1) plus the exchanges after the previous node, and
 * those only when `items` is read) when no entry is pinned; else segmented from scratch.
 */
export function historyView(input: CompactionInput, options: AugmentOptions): HistoryView {
  const index = branchIndex(input.entries);
  const pinned = index.flaggedPinned > 0 || [...(input.pinned ?? [])].some((id) => index.indexOf(id) >= 0);
  return pinned ? historyViewFromScratch(input, options) : indexedView(input, options, index);
}

/** Size of a summary node in the view's unit; the node's text is the same string at every call until the next summary. */
let nodeSizeMemo: { text: string; ack: string; unit: string; counter: unknown; size: number } | undefined;

function nodeSize(node: ResolvedNode, byCounter: boolean, input: CompactionInput): number {
  const unit = byCounter ? 'counter' : 'chars';
  const memo = nodeSizeMemo;
  if (memo && memo.text === node.nodeText && memo.ack === node.ackText && memo.unit === unit && memo.counter === input.counter) return memo.size;
  const measure = byCounter ? (text: string) => input.counter.count(text) : (text: string) => CHARS.count(text);
  const size = measure(node.nodeText) + measure(node.ackText);
  nodeSizeMemo = { text: node.nodeText, ack: node.ackText, unit, counter: input.counter, size };
  return size;
}

/** `historyViewFromScratch` for a branch without pins, read from its index. */
function indexedView(input: CompactionInput, options: AugmentOptions, index: AugmentBranchIndex): HistoryView {
  const { entries } = input;
  const n = entries.length;
  const notes: string[] = [];
  const charsOf = (i: number) => index.charsAt(i);
  const byCounter = options.sizeUnit === 'tokens';
  const sizeOf = byCounter ? (i: number) => input.tokens.countAt(i) : charsOf;
  const unit = byCounter ? `${input.counter.label} tokens` : 'chars';
  const isPinned = (entry: Entry) => Boolean(input.pinned?.has(entry.id) || entry.flags?.pinned);
  /** Size of the non-system entries from..to. */
  const sizeIn = (from: number, to: number): number => {
    if (to < from) return 0;
    if (!byCounter) return index.nonSystemCharsIn(from, to);
    let size = input.tokens.range(from, to);
    for (const i of index.systemIn(from, to)) size -= input.tokens.countAt(i);
    return size;
  };

  const resolved = resolvePrevious(input, options, notes, (id) => index.indexOf(id));
  const starts = index.starts(options.exchangeUnit);
  // A forced start at the node's boundary is one more exchange start (on the next non-system entry).
  const boundary = resolved?.boundary ?? 0;
  const forced = resolved ? index.firstNonSystemFrom(boundary) : -1;
  const ordinalBase = resolved ? starts.countBelow(boundary) : 0;
  const previous: PreviousNode | undefined = resolved ? { ...resolved, sequenceId: resolved.sequenceId ?? ordinalBase - 0.5 } : undefined;
  const nodeItem: HistoryItem | undefined = previous ? { kind: 'previous', node: previous, size: nodeSize(resolved!, byCounter, input) } : undefined;
  const from = resolved ? forced : starts.count > 0 ? starts.at(0) : -1;
  const totalSize = (nodeItem?.size ?? 0) + (from >= 0 ? sizeIn(from, n - 1) : 0);

  let items: HistoryItem[] | undefined;
  const buildItems = (): HistoryItem[] => {
    const out: HistoryItem[] = nodeItem ? [nodeItem] : [];
    if (from < 0) return out;
    const list = [from];
    for (let k = starts.countBelow(from + 1); k < starts.count; k++) list.push(starts.at(k));
    list.forEach((start, k) => {
      const end = index.lastNonSystemAt((list[k + 1] ?? n) - 1);
      out.push({ kind: 'exchange', exchange: { start, end, pinned: false }, ordinal: ordinalBase + k, size: sizeIn(start, end) });
    });
    return out;
  };
  if (previous) notes.push(`The API history starts at the previous version ${previous.version} summary node (entries before #${previous.boundary} are represented by it, §2.2).`);
  return {
    sizeOf, charsOf, unit, byCounter, ...(previous ? { previous } : {}),
    get items() {
      items ??= buildItems();
      return items;
    },
    totalSize, isPinned, notes,
  };
}

/** The history view segmented from the whole branch (any pins). */
export function historyViewFromScratch(input: CompactionInput, options: AugmentOptions): HistoryView {
  const { entries } = input;
  const notes: string[] = [];
  const chars = entryChars(entries);
  const charsOf = (i: number) => chars[i]!;
  const byCounter = options.sizeUnit === 'tokens';
  const sizeOf = byCounter ? (i: number) => input.tokens.countAt(i) : charsOf;
  const measure = byCounter ? (text: string) => input.counter.count(text) : (text: string) => CHARS.count(text);
  const unit = byCounter ? `${input.counter.label} tokens` : 'chars';
  const isPinned = (entry: Entry) => Boolean(input.pinned?.has(entry.id) || entry.flags?.pinned);

  const resolved = resolvePrevious(input, options, notes, (id) => entries.findIndex((entry) => entry.id === id));
  const exchanges = segmentExchanges(entries, { unit: options.exchangeUnit, pinned: isPinned, forced: resolved ? [resolved.boundary] : [] });
  const sizes = exchangeSizes(entries, exchanges, sizeOf);

  const items: HistoryItem[] = [];
  let previous: PreviousNode | undefined;
  const pushPrevious = (ordinal: number) => {
    if (!resolved || previous) return;
    // Without a stored id the node sits halfway between the exchanges around it.
    previous = { ...resolved, sequenceId: resolved.sequenceId ?? ordinal - 0.5 };
    items.push({ kind: 'previous', node: previous, size: measure(previous.nodeText) + measure(previous.ackText) });
  };
  exchanges.forEach((exchange, ordinal) => {
    if (resolved && exchange.start < resolved.boundary) {
      // Before the node only pinned exchanges are still in the context (A13).
      if (exchange.pinned) items.push({ kind: 'exchange', exchange, ordinal, size: sizes[ordinal]! });
      return;
    }
    pushPrevious(ordinal);
    items.push({ kind: 'exchange', exchange, ordinal, size: sizes[ordinal]! });
  });
  pushPrevious(exchanges.length);
  if (previous) notes.push(`The API history starts at the previous version ${previous.version} summary node (entries before #${previous.boundary} are represented by it, §2.2).`);
  const totalSize = items.reduce((sum, item) => sum + item.size, 0);
  return { sizeOf, charsOf, unit, byCounter, ...(previous ? { previous } : {}), items, totalSize, isPinned, notes };
}
