/**
 * What the three exporters share: which tool calls and results of a context can travel as a pair
 * (an API refuses a call without its answer and an answer without its call), how an image we
 * never kept the bytes of is written, and the role a context entry speaks with.
 */
import type { ImageBlock, Role, ToolCallBlock, ToolResultBlock } from '../journal/entry.ts';
import type { ContextEntry } from '../compaction/types.ts';

/** The calls and results of a context that pair up, and why the others were left out. */
export interface Pairing {
  /** Calls answered by a later result in the context. */
  calls: Set<ToolCallBlock>;
  /** Each kept result with the call it answers. */
  callOf: Map<ToolResultBlock, ToolCallBlock>;
  notes: string[];
}

/** Entries that are harness output, not model context, are never exported. */
export function isExported(item: ContextEntry): boolean {
  return item.entry.kind !== 'event';
}

/**
 * Pairs calls with results by call id, in context order (first unanswered call with that id
 * first, as the importer links them). A result must come after its call: an API reads the
 * messages in order, so a result before its call is as orphaned as one without a call.
 */
export function pairToolBlocks(context: readonly ContextEntry[]): Pairing {
  const open = new Map<string, Array<{ block: ToolCallBlock; entryId: string }>>();
  const calls = new Set<ToolCallBlock>();
  const callOf = new Map<ToolResultBlock, ToolCallBlock>();
  const notes: string[] = [];
  for (const item of context) {
    if (!isExported(item)) continue;
    if (item.role === 'system') {
      // System text goes where each API keeps instructions, which holds no tool traffic.
      const count = item.entry.blocks.filter((block) => block.type === 'tool_call' || block.type === 'tool_result').length;
      if (count > 0) notes.push(`Dropped ${count} tool call(s)/result(s) held by system entry ${item.entry.id}: system text carries no tool traffic.`);
      continue;
    }
    for (const block of item.entry.blocks) {
      if (block.type === 'tool_call') {
        const list = open.get(block.callId);
        if (list) list.push({ block, entryId: item.entry.id });
        else open.set(block.callId, [{ block, entryId: item.entry.id }]);
      } else if (block.type === 'tool_result') {
        const call = open.get(block.callId)?.shift();
        if (call) {
          calls.add(call.block);
          callOf.set(block, call.block);
        } else {
          notes.push(`Dropped the tool result for call ${block.callId} (entry ${item.entry.id}): its call is not in the context before it.`);
        }
      }
    }
  }
  for (const list of open.values()) {
    for (const { block, entryId } of list) {
      notes.push(`Dropped the tool call ${block.name} (${block.callId}, entry ${entryId}): its result is not in the context after it.`);
    }
  }
  return { calls, callOf, notes };
}

/** Bytes as `512 B`, `34 KB`, `1.5 MB` (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The text an image becomes: the journal kept its type and size, never its data. */
export function imagePlaceholder(image: ImageBlock): string {
  if (image.bytes > 0) return `[image: ${image.mediaType}, ${formatBytes(image.bytes)}]`;
  return `[image: ${image.mediaType}, ${image.source === 'file' ? 'uploaded file' : 'from a URL'}]`;
}

/** Text of a tool result's parts, images as placeholders, in order. */
export function resultParts(result: ToolResultBlock): string[] {
  return result.content.map((part) => (part.type === 'text' ? part.text : imagePlaceholder(part))).filter((text) => text.length > 0);
}

/** Neither API has a summary role: a summary is read by the model as user text. */
export function speakingRole(role: Role): Exclude<Role, 'summary'> {
  return role === 'summary' ? 'user' : role;
}
