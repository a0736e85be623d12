/**
 * The layered strategy's view of a branch (seed 002 §A4, §D1): which entries are L1 system
 * prompts, archived summaries, harness events or L3 conversation, which tool_use/tool_result
 * entries belong together, and where whole turns start (a user message opens a turn).
 */
import type { Entry } from '../../journal/entry.ts';

/**
 * - `system`: an L1 system prompt (role system, kind message): always kept, never summarized.
 * - `archive`: a summary already in the journal (kind compaction, role summary): appended, never re-compressed.
 * - `event`: harness output that is not model context.
 * - `conversation`: user / assistant / tool messages, the only ones the strategy compacts (L4).
 */
export type EntryClass = 'system' | 'archive' | 'event' | 'conversation';

export function classify(entry: Entry): EntryClass {
  if (entry.kind === 'event') return 'event';
  if (entry.kind === 'compaction' || entry.role === 'summary') return 'archive';
  if (entry.role === 'system') return 'system';
  return 'conversation';
}

/**
 * A user message opens a turn (§D1 "遇到 user 消息即开启新轮"). Harness-injected text and user
 * entries that carry tool results belong to the turn they sit in.
 */
export function opensTurn(entry: Entry): boolean {
  if (entry.role !== 'user' || entry.kind !== 'message' || entry.flags?.injected) return false;
  return !entry.blocks.some((block) => block.type === 'tool_result');
}

/** For each entry index, the indices of the entries its tool calls / results pair with (by callId). */
export function pairPartners(entries: readonly Entry[]): Map<number, number[]> {
  const callAt = new Map<string, number>();
  const partners = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    if (a === b) return;
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const list = partners.get(x) ?? [];
      if (!list.includes(y)) list.push(y);
      partners.set(x, list);
    }
  };
  entries.forEach((entry, i) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call' && !callAt.has(block.callId)) callAt.set(block.callId, i);
      if (block.type === 'tool_result') {
        const call = callAt.get(block.callId);
        if (call !== undefined) link(call, i);
      }
    }
  });
  return partners;
}

/**
 * Indices (>= `from`) where a whole turn starts and a cut may fall: a turn-opening user message
 * that no tool_use/tool_result pair spans (a cut there would split the pair).
 */
export function turnStarts(entries: readonly Entry[], from: number, partners: ReadonlyMap<number, readonly number[]>): number[] {
  // crossed[b] > 0 when some pair has its call before b and its result at or after b.
  const delta = new Int32Array(entries.length + 1);
  for (const [i, list] of partners) {
    for (const j of list) {
      if (j > i) {
        delta[i + 1]!++;
        delta[j + 1]!--;
      }
    }
  }
  const starts: number[] = [];
  let open = 0;
  for (let b = 0; b < entries.length; b++) {
    open += delta[b]!;
    if (b >= from && open === 0 && opensTurn(entries[b]!)) starts.push(b);
  }
  return starts;
}
