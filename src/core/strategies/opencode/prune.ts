/**
 * opencode's pruning of old tool outputs: walking back from the newest entry, past the last two
 * user turns, tool outputs are counted (opencode's estimate, characters / 4) until they pass the
 * protected amount; every older output becomes a short placeholder, but only when that frees more
 * than the minimum. The walk stops at the last compaction or at an output already cleared.
 */
import type { CompactionInput } from '../../compaction/types.ts';
import { blockText, type Block } from '../../journal/entry.ts';
import { indexOfId, isRealUserMessage } from '../agent-state.ts';
import { rewriteEntry, type Rewrite } from '../masking/rewrite.ts';

/** What a cleared tool output says instead. */
export const PRUNED_OUTPUT = '[Old tool output cleared]';
/** Tools whose output opencode never prunes. */
const PROTECTED_TOOLS = new Set(['skill']);

/** opencode's token estimate: characters / 4, rounded. */
export function opencodeEstimate(text: string): number {
  return Math.round(text.length / 4);
}

export interface PrunedOutput {
  callId: string;
  entryId: string;
}

export interface PruneScan {
  /** The outputs this pruning clears, by call id and the id of the entry holding them (empty when it would free too little). */
  cleared: PrunedOutput[];
  /** Estimated tokens the outputs past the protected amount hold. */
  freed: number;
  /** Estimated tokens of the outputs walked over. */
  total: number;
}

function toolName(input: CompactionInput, block: Extract<Block, { type: 'tool_result' }>): string | undefined {
  if (block.toolName) return block.toolName;
  const at = block.callEntryId === undefined ? -1 : indexOfId(input.entries, block.callEntryId);
  const call = at >= 0 ? input.entries[at]!.blocks.find((b) => b.type === 'tool_call' && b.callId === block.callId) : undefined;
  return call?.type === 'tool_call' ? call.name : undefined;
}

export function scanPrune(input: CompactionInput, start: number, pruned: ReadonlySet<string>, protect: number, minimum: number): PruneScan {
  let turns = 0;
  let total = 0;
  let freed = 0;
  const ids: PrunedOutput[] = [];
  walk: for (let i = input.entries.length - 1; i >= start; i--) {
    const entry = input.entries[i]!;
    if (isRealUserMessage(entry)) turns++;
    if (turns < 2) continue;
    for (let b = entry.blocks.length - 1; b >= 0; b--) {
      const block = entry.blocks[b]!;
      if (block.type !== 'tool_result') continue;
      if (PROTECTED_TOOLS.has(toolName(input, block) ?? '')) continue;
      if (pruned.has(block.callId)) break walk;
      const estimate = opencodeEstimate(blockText(block));
      total += estimate;
      if (total <= protect) continue;
      freed += estimate;
      ids.push({ callId: block.callId, entryId: entry.id });
    }
  }
  return { cleared: freed > minimum ? ids : [], freed, total };
}

/** The entries from `start` on whose outputs `pruned` clears, rewritten (memoized per entry), ascending. */
export function pruneRewrites(input: CompactionInput, start: number, pruned: readonly PrunedOutput[]): Rewrite[] {
  if (pruned.length === 0) return [];
  const calls = new Set(pruned.map((p) => p.callId));
  const at = new Set<number>();
  for (const p of pruned) {
    const i = indexOfId(input.entries, p.entryId);
    if (i >= start) at.add(i);
  }
  const out: Rewrite[] = [];
  for (const i of [...at].sort((a, b) => a - b)) {
    const entry = input.entries[i]!;
    const key = `opencode-prune:${entry.blocks.map((b) => (b.type === 'tool_result' && calls.has(b.callId) ? 'P' : '-')).join('')}`;
    const rewrite = rewriteEntry(input, i, (block) => (block.type === 'tool_result' && calls.has(block.callId) ? { ...block, content: [{ type: 'text', text: PRUNED_OUTPUT }] } : undefined), key);
    if (rewrite) out.push(rewrite);
  }
  return out;
}
