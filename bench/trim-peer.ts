/**
 * The peer for pi's cut: LangChain's `trimMessages` (strategy 'last') over the same synthetic
 * transcript as BaseMessages, with a token counter that returns our precomputed per-entry counts,
 * and an orphan check that reads both results the same way (a kept tool result whose call is gone).
 */
import { AIMessage, HumanMessage, ToolMessage, trimMessages, type BaseMessage } from '@langchain/core/messages';
import type { Entry } from '../src/core/journal/entry.ts';

/** The entries as LangChain messages; each message's `id` is its entry index (trimMessages copies messages, ids survive). */
export function toMessages(entries: readonly Entry[]): BaseMessage[] {
  return entries.map((entry, index) => {
    const id = String(index);
    const text = entry.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    if (entry.role === 'user') return new HumanMessage({ content: text, id });
    if (entry.role === 'assistant') {
      const toolCalls = entry.blocks.flatMap((b) => (b.type === 'tool_call' ? [{ id: b.callId, name: b.name, args: b.input as Record<string, unknown>, type: 'tool_call' as const }] : []));
      return new AIMessage({ content: text, id, tool_calls: toolCalls });
    }
    const result = entry.blocks.find((b) => b.type === 'tool_result');
    if (entry.role !== 'tool' || result?.type !== 'tool_result') throw new Error(`Entry ${entry.id} (${entry.role}) has no LangChain counterpart in this benchmark.`);
    return new ToolMessage({ content: result.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n'), tool_call_id: result.callId, id });
  });
}

/** A token counter for trimMessages that sums the precomputed count of each message, by its id. */
export function countsCounter(counts: readonly number[]): (messages: BaseMessage[]) => number {
  return (messages) => {
    let total = 0;
    for (const message of messages) total += counts[Number(message.id)] ?? 0;
    return total;
  };
}

/** trimMessages 'last' at `maxTokens`; `startOn` as LangChain documents it for keeping tool pairs whole. */
export function trimLast(messages: BaseMessage[], counts: readonly number[], maxTokens: number, startOn?: 'human'): Promise<BaseMessage[]> {
  return trimMessages(messages, { maxTokens, strategy: 'last', tokenCounter: countsCounter(counts), ...(startOn ? { startOn } : {}) });
}

/** Kept ToolMessages whose tool_call_id is on no kept AIMessage. */
export function messageOrphans(kept: readonly BaseMessage[]): number {
  const calls = new Set<string>();
  for (const message of kept) if (AIMessage.isInstance(message)) for (const call of message.tool_calls ?? []) if (call.id) calls.add(call.id);
  let orphans = 0;
  for (const message of kept) if (ToolMessage.isInstance(message) && !calls.has(message.tool_call_id)) orphans++;
  return orphans;
}

/** Tool results in entries[from..] whose call is in no entry of that range. */
export function entryOrphans(entries: readonly Entry[], from: number): number {
  const calls = new Set<string>();
  for (let i = from; i < entries.length; i++) for (const b of entries[i]!.blocks) if (b.type === 'tool_call') calls.add(b.callId);
  let orphans = 0;
  for (let i = from; i < entries.length; i++) for (const b of entries[i]!.blocks) if (b.type === 'tool_result' && !calls.has(b.callId)) orphans++;
  return orphans;
}
