/**
 * Links every tool call to its result at import, by the format's pairing key, so no later stage
 * has to guess. Results that arrive out of order (parallel calls) still link; calls and results
 * with no partner are left unlinked and counted as orphans, except hosted calls (run by the
 * provider, their result inside the response), which are complete on their own.
 */
import type { Entry, ToolCallBlock, ToolResultBlock } from './entry.ts';

export interface LinkReport {
  toolCalls: number;
  toolResults: number;
  orphanToolCalls: number;
  orphanToolResults: number;
}

/** Sets `resultEntryId` / `callEntryId` on the blocks in place and reports the counts. */
export function linkToolCalls(entries: Entry[]): LinkReport {
  const open = new Map<string, Array<{ entry: Entry; block: ToolCallBlock }>>();
  const unmatched: Array<{ entry: Entry; block: ToolResultBlock }> = [];
  let toolCalls = 0;
  let toolResults = 0;
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        toolCalls++;
        delete block.resultEntryId;
        const list = open.get(block.callId);
        if (list) list.push({ entry, block });
        else open.set(block.callId, [{ entry, block }]);
      } else if (block.type === 'tool_result') {
        toolResults++;
        delete block.callEntryId;
        const call = open.get(block.callId)?.shift();
        if (call) pair(call.entry, call.block, entry, block);
        else unmatched.push({ entry, block });
      }
    }
  }
  // A result written before its call (rare, out-of-order logs) pairs with a later unanswered call.
  let orphanToolResults = 0;
  for (const { entry, block } of unmatched) {
    const call = open.get(block.callId)?.shift();
    if (call) pair(call.entry, call.block, entry, block);
    else orphanToolResults++;
  }
  let orphanToolCalls = 0;
  for (const list of open.values()) for (const { block } of list) if (!block.hosted) orphanToolCalls++;
  return { toolCalls, toolResults, orphanToolCalls, orphanToolResults };
}

function pair(callEntry: Entry, call: ToolCallBlock, resultEntry: Entry, result: ToolResultBlock): void {
  call.resultEntryId = resultEntry.id;
  result.callEntryId = callEntry.id;
}

/** Counts links already set on the blocks (after `linkToolCalls`). */
export function linkReport(entries: readonly Entry[]): LinkReport {
  const report: LinkReport = { toolCalls: 0, toolResults: 0, orphanToolCalls: 0, orphanToolResults: 0 };
  for (const entry of entries) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        report.toolCalls++;
        if (!block.resultEntryId && !block.hosted) report.orphanToolCalls++;
      } else if (block.type === 'tool_result') {
        report.toolResults++;
        if (!block.callEntryId) report.orphanToolResults++;
      }
    }
  }
  return report;
}
