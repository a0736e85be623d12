/**
 * Tool calls paired with their results, in journal order, so artifact and error extraction read
 * each call once: the call, the entry holding it, and (when present) the result's entry, error
 * flag and capped text.
 */
import type { Entry, ToolCallBlock } from '../journal/entry.ts';
import { isConversation, resultText } from './sources.ts';

export interface CallRecord {
  call: ToolCallBlock;
  /** Position of the calling entry in the array given to `extractProbes`. */
  index: number;
  entry: Entry;
  result?: { index: number; entry: Entry; isError: boolean; text: string };
}

/** Every tool call of the main conversation with its result (matched by callId), in call order. */
export function collectCalls(entries: readonly Entry[]): CallRecord[] {
  const records: CallRecord[] = [];
  const open = new Map<string, CallRecord>();
  entries.forEach((entry, index) => {
    if (!isConversation(entry)) return;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        const record: CallRecord = { call: block, index, entry };
        records.push(record);
        if (block.callId) open.set(block.callId, record);
      } else if (block.type === 'tool_result') {
        const record = open.get(block.callId);
        if (record && !record.result) record.result = { index, entry, isError: block.isError, text: resultText(block.content) };
      }
    }
  });
  return records;
}
