/**
 * Splits a branch into the units budget trimming drops whole (seed 004 B2): a tool chain — calls and
 * every result linked to them — or one lone entry, each with its value tier and, when it must never
 * be dropped, the reason why.
 */
import type { Entry } from '../../journal/entry.ts';
import type { CompactionInput } from '../../compaction/types.ts';

/**
 * Value tiers, lowest dropped first: 0 tool chains (results and the intermediate assistant
 * tool-call messages), 1 assistant text (and harness-injected text posing as a user), 2 user words
 * and summaries the source already made.
 */
export type ValueTier = 0 | 1 | 2;

export const TIER_LABELS: Readonly<Record<ValueTier, string>> = {
  0: 'tool-chain',
  1: 'assistant-text',
  2: 'user',
};

export type ProtectionReason = 'system' | 'last user message' | 'pinned' | 'recent';

export interface TrimUnit {
  /** Indices into `input.entries`, ascending. */
  indices: number[];
  /** The highest tier of its entries: a chain holding user words is worth what the words are worth. */
  tier: ValueTier;
  /** Set when the unit is never dropped. */
  protectedBy?: ProtectionReason;
  tokens: number;
}

/** An entry's own tier (a unit's is the highest of its entries'). */
export function entryTier(entry: Entry): ValueTier {
  if (entry.kind === 'event') return 0;
  if (entry.role === 'tool' || entry.blocks.some((b) => b.type === 'tool_call' || b.type === 'tool_result')) return 0;
  if (entry.role === 'assistant') return 1;
  if (entry.role === 'user' && entry.flags?.injected) return 1;
  return 2;
}

function hasUserWords(entry: Entry): boolean {
  return entry.blocks.some((b) => b.type === 'text' && b.text.trim().length > 0);
}

/**
 * Index of the last user message — the request being answered, never dropped: the last user entry
 * with words of its own that the harness did not inject; failing that, the last user entry at all.
 */
export function lastUserIndex(entries: readonly Entry[]): number | undefined {
  let fallback: number | undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.role !== 'user' || entry.kind !== 'message') continue;
    fallback ??= i;
    if (!entry.flags?.injected && hasUserWords(entry)) return i;
  }
  return fallback;
}

/** Union-find over entry indices: tool links join a call's entry to its results' entries. */
function chainRoots(entries: readonly Entry[]): number[] {
  const parent = entries.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[i] !== root) {
      const next = parent[i]!;
      parent[i] = root;
      i = next;
    }
    return root;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const byId = new Map<string, number>();
  entries.forEach((entry, i) => byId.set(entry.id, i));
  // Unlinked entries (tests, formats without ids on results) pair by callId with the latest call, as linkToolCalls does.
  const latestCall = new Map<string, number>();
  entries.forEach((entry, i) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        latestCall.set(block.callId, i);
        const result = block.resultEntryId === undefined ? undefined : byId.get(block.resultEntryId);
        if (result !== undefined) union(i, result);
      } else if (block.type === 'tool_result') {
        const call = block.callEntryId === undefined ? latestCall.get(block.callId) : byId.get(block.callEntryId);
        if (call !== undefined) union(i, call);
      }
    }
  });
  return entries.map((_, i) => find(i));
}

/**
 * The units of a branch in order of their first entry. Protected: system entries, pinned entries,
 * the last user message, and the latest `keepRecent` entries (the current exchange); a unit is
 * protected when any of its entries is.
 */
export function trimUnits(input: CompactionInput, keepRecent: number): TrimUnit[] {
  const { entries } = input;
  const roots = chainRoots(entries);
  const lastUser = lastUserIndex(entries);
  const recentFrom = entries.length - keepRecent;
  const byRoot = new Map<number, TrimUnit>();
  const units: TrimUnit[] = [];
  entries.forEach((entry, i) => {
    const root = roots[i]!;
    let unit = byRoot.get(root);
    if (!unit) {
      unit = { indices: [], tier: 0, tokens: 0 };
      byRoot.set(root, unit);
      units.push(unit);
    }
    unit.indices.push(i);
    unit.tokens += input.tokens.countAt(i);
    unit.tier = Math.max(unit.tier, entryTier(entry)) as ValueTier;
    const reason = protection(entry, i, lastUser, recentFrom, input.pinned);
    if (reason && !unit.protectedBy) unit.protectedBy = reason;
  });
  return units;
}

/** Why an entry is never dropped, if it is not: system, last user message, pinned, recent (in that order). */
export function protection(entry: Entry, i: number, lastUser: number | undefined, recentFrom: number, pinned: ReadonlySet<string> | undefined): ProtectionReason | undefined {
  if (entry.role === 'system') return 'system';
  if (i === lastUser) return 'last user message';
  if (entry.flags?.pinned || pinned?.has(entry.id)) return 'pinned';
  if (i >= recentFrom) return 'recent';
  return undefined;
}
