/**
 * The context an agent's own compaction (codex, claude-code, opencode) leaves behind, kept in
 * `previous.state` so later triggers and plans read the context the agent would be sending: the
 * items the compaction kept or made (system prompt, carried messages, the summary, re-attached
 * files), then every entry recorded after the last entry it covered. Also the message tests these
 * agents share (a real user prompt, the initial context) and the memoized id -> index lookup.
 */
import { contextTokens } from '../compaction/context-tokens.ts';
import type { CompactionInput, ContextEntry, PreviousCompaction, StrategyId } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';

/** An item of the compacted context: a journal entry by id, or an entry the strategy made. */
export type StateItem = { journalId: string } | { made: ContextEntry };

/** What the next compaction reads from `previous.state`. */
export interface AgentState {
  [key: string]: unknown;
  /** Id of the last journal entry the compaction covered: the entries after it are new since. */
  throughId: string;
  items: StateItem[];
}

/** The context as it is now: the compaction's items, then the journal from `start` on. */
export interface AgentView {
  /** Index of the first entry recorded after the last compaction (0 without one). */
  start: number;
  items: ContextEntry[];
  /** The summary text the last compaction made, if any. */
  summary?: string;
  notes: string[];
}

const indexMemo = new WeakMap<readonly Entry[], { map: Map<string, number>; length: number }>();

/** Index of entry `id` in `entries` (memoized per array; a growing replay array is extended, not rebuilt). */
export function indexOfId(entries: readonly Entry[], id: string): number {
  let memo = indexMemo.get(entries);
  if (!memo || memo.length > entries.length) indexMemo.set(entries, (memo = { map: new Map(), length: 0 }));
  for (let i = memo.length; i < entries.length; i++) memo.map.set(entries[i]!.id, i);
  memo.length = entries.length;
  const i = memo.map.get(id);
  return i !== undefined && entries[i]?.id === id ? i : -1;
}

/** A journal entry kept as it is. */
export function journalItem(entry: Entry): ContextEntry {
  return { role: entry.role, entry, origin: 'journal' };
}

/** A system message: always kept, never summarized. */
export function isSystemMessage(entry: Entry): boolean {
  return entry.role === 'system' && entry.kind === 'message';
}

/** A prompt the user typed: a user message with text, neither a tool result nor harness-injected text. */
export function isRealUserMessage(entry: Entry): boolean {
  return entry.role === 'user' && entry.kind === 'message' && !entry.flags?.injected
    && !entry.blocks.some((block) => block.type === 'tool_result')
    && entry.blocks.some((block) => block.type === 'text' && block.text.trim() !== '');
}

/**
 * The session's initial context, which these agents rebuild after every compaction: the system
 * messages, and the harness-injected user messages (instructions files, environment) before the
 * first prompt the user typed.
 */
export function initialContextIndices(entries: readonly Entry[]): number[] {
  const out: number[] = [];
  let prompted = false;
  entries.forEach((entry, i) => {
    if (isRealUserMessage(entry)) prompted = true;
    if (isSystemMessage(entry) || (!prompted && entry.role === 'user' && entry.kind === 'message' && entry.flags?.injected)) out.push(i);
  });
  return out;
}

/** The context the last compaction of `strategy` left, as it applies on this branch. */
export function agentView(input: CompactionInput, strategy: StrategyId): AgentView {
  const previous = input.previous;
  if (!previous || previous.strategy !== strategy) return { start: 0, items: [], notes: [] };
  const state = previous.state as Partial<AgentState> | undefined;
  // A run that made no summary (opencode's pruning alone) names no covered entry.
  if (state?.throughId === '') return { start: 0, items: [], notes: [] };
  const through = typeof state?.throughId === 'string' ? indexOfId(input.entries, state.throughId) : -1;
  if (!state || through < 0 || !Array.isArray(state.items)) {
    return { start: 0, items: [], notes: ['The previous compaction is not on this branch: the whole branch is read as it was recorded.'] };
  }
  const items: ContextEntry[] = [];
  let summary: string | undefined;
  for (const item of state.items) {
    if ('made' in item) {
      items.push(item.made);
      if (item.made.origin === 'summary') summary = item.made.entry.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
      continue;
    }
    const i = indexOfId(input.entries, item.journalId);
    if (i >= 0) items.push(journalItem(input.entries[i]!));
  }
  return {
    start: through + 1, items, ...(summary !== undefined ? { summary } : {}),
    notes: [`Previous ${strategy} compaction covered everything through ${state.throughId}: the context is its ${items.length} items plus the entries recorded since.`],
  };
}

/** Tokens of the view's context (the counter's; the unseen prefix not included). */
export function viewTokens(input: CompactionInput, view: AgentView): number {
  const n = input.entries.length;
  return contextTokens(input, view.items) + (view.start < n ? input.tokens.range(view.start, n - 1) : 0);
}

/** The view as a context: its items, then the journal from `start` on. */
export function viewContext(input: CompactionInput, view: AgentView): ContextEntry[] {
  return [...view.items, ...input.entries.slice(view.start).map(journalItem)];
}

/** The state a compaction that covered `input` and assembled `items` leaves for the next one. */
export function agentPrevious(strategy: StrategyId, input: CompactionInput, items: readonly ContextEntry[], summaries: string[]): PreviousCompaction {
  const last = input.entries[input.entries.length - 1];
  const state: AgentState = {
    throughId: last?.id ?? '',
    items: items.map((item) => (item.origin === 'journal' ? { journalId: item.entry.id } : { made: item })),
  };
  return { strategy, summaries, state };
}

/** A summary (or other made text) as a user message standing for `from`..`to`. */
export function madeUserItem(input: CompactionInput, id: string, text: string, origin: 'summary' | 'synthetic', covered?: { from: Entry; to: Entry; count: number }): ContextEntry {
  const last = covered?.to ?? input.entries[input.entries.length - 1];
  const entry: Entry = {
    id, index: last?.index ?? 0, parentId: covered?.from.parentId ?? null, role: origin === 'summary' ? 'summary' : 'user',
    kind: origin === 'summary' ? 'compaction' : 'message', blocks: [{ type: 'text', text }], timestamp: input.now,
    sourceType: origin === 'summary' ? 'compaction' : 'synthetic', line: last?.line ?? 0,
  };
  return {
    role: 'user', entry, origin,
    ...(covered ? { replaces: { fromId: covered.from.id, toId: covered.to.id, count: covered.count } } : {}),
  };
}
