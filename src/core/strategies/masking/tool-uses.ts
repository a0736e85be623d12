/**
 * The tool uses of a branch (a result by call id, with the call it answers), kept up to date as
 * the branch grows: a replay asks tool result clearing before every model call, and the uses of a
 * longer history are the uses of the shorter one plus those of the appended entries.
 */
import type { Entry } from '../../journal/entry.ts';

/** One tool use: a result block by call id, with the call it answers when the input holds it. */
export interface ToolUse {
  callId: string;
  name: string;
  resultIndex: number;
  callIndex?: number;
}

export interface ToolUses {
  /**
   * In the order of their results (read-only). Shared with longer branches that continue this one:
   * it may grow later, so a caller that keeps it reads only the first `count`.
   */
  uses: readonly ToolUse[];
  /** How many uses `entries` holds (the length of `uses` when it was handed out). */
  count: number;
  /** Each use by its call id. */
  byCallId: ReadonlyMap<string, ToolUse>;
  /** A call id appears in more than one call block or result block (then a use does not name every block of its id). */
  duplicates: boolean;
}

class ToolUseIndex {
  length = 0;
  readonly uses: ToolUse[] = [];
  readonly byCallId = new Map<string, ToolUse>();
  duplicates = false;
  private readonly calls = new Map<string, { index: number; name: string }>();
  private last: { id: string; blocks: Entry['blocks'] } | undefined;

  continues(entries: readonly Entry[]): boolean {
    if (entries.length < this.length) return false;
    if (!this.last) return true;
    const entry = entries[this.length - 1]!;
    return entry.id === this.last.id && entry.blocks === this.last.blocks;
  }

  advance(entries: readonly Entry[]): void {
    for (let i = this.length; i < entries.length; i++) {
      const entry = entries[i]!;
      for (const block of entry.blocks) {
        if (block.type === 'tool_call') {
          if (!this.calls.has(block.callId)) this.calls.set(block.callId, { index: i, name: block.name });
          else this.duplicates = true;
        }
        if (block.type === 'tool_result' && this.byCallId.has(block.callId)) this.duplicates = true;
        if (block.type === 'tool_result' && !this.byCallId.has(block.callId)) {
          const call = this.calls.get(block.callId);
          const use: ToolUse = { callId: block.callId, name: call?.name ?? block.toolName ?? '', resultIndex: i, ...(call ? { callIndex: call.index } : {}) };
          this.uses.push(use);
          this.byCallId.set(block.callId, use);
        }
      }
      this.length = i + 1;
      this.last = { id: entry.id, blocks: entry.blocks };
    }
  }
}

const INDICES_PER_ROOT = 4;
const cache = new WeakMap<Entry, ToolUseIndex[]>();

/** The tool uses of `entries`: the first result of each call id, in order (`uses` is shared, not copied: read its first `count`). */
export function toolUsesOf(entries: readonly Entry[]): ToolUses {
  const root = entries[0];
  if (!root) return { uses: [], count: 0, byCallId: new Map(), duplicates: false };
  const indices = cache.get(root) ?? [];
  let best: ToolUseIndex | undefined;
  for (const index of indices) if (index.continues(entries) && (!best || index.length > best.length)) best = index;
  if (!best) {
    best = new ToolUseIndex();
    indices.unshift(best);
    if (indices.length > INDICES_PER_ROOT) indices.pop();
    cache.set(root, indices);
  }
  best.advance(entries);
  return { uses: best.uses, count: best.uses.length, byCallId: best.byCallId, duplicates: best.duplicates };
}
