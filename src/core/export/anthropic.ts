/**
 * Exports a context as an Anthropic Messages request body (FORMATS.md §5) that the API accepts:
 * system entries joined into `system`, user and assistant strictly alternating (same-role
 * neighbours merged), every `tool_use` answered in the very next user message with the
 * `tool_result`s first, signed thinking passed through unchanged.
 *
 * A summary entry becomes user text (there is no summary role). Calls and results that do not pair
 * up inside the context are dropped, and each drop is named in `notes`.
 */
import type { Block, ToolCallBlock, ToolResultBlock } from '../journal/entry.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { imagePlaceholder, isExported, pairToolBlocks, resultParts, speakingRole } from './common.ts';

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

export type AnthropicBlock =
  | AnthropicTextBlock
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content?: string | AnthropicTextBlock[]; is_error?: true };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicExport {
  /** The system entries' text, joined by blank lines; absent when the context has none. */
  system?: string;
  messages: AnthropicMessage[];
  /** What was left out, moved or rewritten, and why. */
  notes: string[];
}

/** The Messages API accepts these characters in a tool_use id and nothing else. */
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/** The `{system, messages}` of a Messages request for a context, with notes on what changed. */
export function toAnthropicMessages(context: readonly ContextEntry[]): AnthropicExport {
  const pairing = pairToolBlocks(context);
  const notes = [...pairing.notes];
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  /** The assistant message whose tool_uses wait for results, and the next user message being built. */
  let open: { message: AnthropicMessage; awaiting: Set<ToolCallBlock>; results: AnthropicBlock[]; rest: AnthropicBlock[] } | undefined;
  let systemMoved = 0;
  let unsigned = 0;
  let wrappedInputs = 0;
  let renamedIds = 0;

  const toolId = (id: string): string => {
    if (TOOL_ID.test(id)) return id;
    renamedIds++;
    return id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  };

  const addAssistant = (blocks: AnthropicBlock[], calls: ToolCallBlock[]): void => {
    if (blocks.length === 0) return;
    if (open) {
      // Nothing may come between the calls and their results, so later assistant text joins them.
      open.message.content.push(...blocks);
      for (const call of calls) open.awaiting.add(call);
      return;
    }
    const last = messages[messages.length - 1];
    let message: AnthropicMessage;
    if (last?.role === 'assistant') {
      last.content.push(...blocks);
      message = last;
    } else {
      message = { role: 'assistant', content: blocks };
      messages.push(message);
    }
    if (calls.length > 0) open = { message, awaiting: new Set(calls), results: [], rest: [] };
  };
  const addUser = (blocks: AnthropicBlock[]): void => {
    if (blocks.length === 0) return;
    if (open) {
      open.rest.push(...blocks);
      return;
    }
    const last = messages[messages.length - 1];
    if (last?.role === 'user') last.content.push(...blocks);
    else messages.push({ role: 'user', content: blocks });
  };
  const closeOpen = (): void => {
    if (!open) return;
    const content = [...open.results, ...open.rest];
    open = undefined;
    if (content.length > 0) messages.push({ role: 'user', content });
  };
  const addResult = (result: ToolResultBlock): void => {
    const call = pairing.callOf.get(result);
    if (!call || !open?.awaiting.has(call)) return;
    const parts = resultParts(result);
    const block: AnthropicBlock = { type: 'tool_result', tool_use_id: toolId(result.callId) };
    if (parts.length === 1) block.content = parts[0];
    else if (parts.length > 1) block.content = parts.map((text) => ({ type: 'text', text }));
    if (result.isError) block.is_error = true;
    open.results.push(block);
    open.awaiting.delete(call);
    if (open.awaiting.size === 0) closeOpen();
  };

  const wireBlock = (block: Block, assistant: boolean): AnthropicBlock | undefined => {
    switch (block.type) {
      case 'text':
        // The API refuses empty text blocks.
        return block.text.length > 0 ? { type: 'text', text: block.text } : undefined;
      case 'image':
        return { type: 'text', text: imagePlaceholder(block) };
      case 'thinking':
        // Thinking is only valid on the assistant side, and only with the signature that vouches for it.
        if (!assistant || block.signature === undefined || block.signature.length === 0) {
          unsigned++;
          return undefined;
        }
        return block.redacted ? { type: 'redacted_thinking', data: block.signature } : { type: 'thinking', thinking: block.text, signature: block.signature };
      case 'tool_call': {
        let input: Record<string, unknown>;
        if (isRecord(block.input)) input = block.input;
        else {
          wrappedInputs++;
          input = { input: block.input };
        }
        return { type: 'tool_use', id: toolId(block.callId), name: block.name, input };
      }
      case 'tool_result':
        return undefined;
    }
  };

  for (const item of context) {
    if (!isExported(item)) continue;
    const role = speakingRole(item.role);
    if (role === 'system') {
      const text = item.entry.blocks.flatMap((block) => (block.type === 'text' && block.text.length > 0 ? [block.text] : [])).join('\n\n');
      if (text.length > 0) {
        system.push(text);
        if (messages.length > 0 || open) systemMoved++;
      }
      continue;
    }
    const assistant = role === 'assistant';
    const blocks: AnthropicBlock[] = [];
    const calls: ToolCallBlock[] = [];
    const results: ToolResultBlock[] = [];
    for (const block of item.entry.blocks) {
      if (block.type === 'tool_result') {
        if (pairing.callOf.has(block)) results.push(block);
        continue;
      }
      if (block.type === 'tool_call') {
        if (!pairing.calls.has(block)) continue;
        calls.push(block);
        // A call can only be made by the assistant, whatever entry held it.
        if (!assistant) continue;
      }
      const wire = wireBlock(block, assistant);
      if (wire) blocks.push(wire);
    }
    if (assistant) {
      addAssistant(blocks, calls);
      for (const result of results) addResult(result);
    } else {
      // Results answer the assistant before this entry, so they go first.
      for (const result of results) addResult(result);
      addUser(blocks);
      addAssistant(calls.flatMap((call) => wireBlock(call, true) ?? []), calls);
    }
  }
  closeOpen();

  if (systemMoved > 0) notes.push(`Moved ${systemMoved} system entr${systemMoved === 1 ? 'y' : 'ies'} from inside the conversation into "system" (the Messages API has no system role in messages).`);
  if (unsigned > 0) notes.push(`Left out ${unsigned} thinking block(s) without a signature or outside an assistant turn: the Messages API only takes thinking back on the assistant side, with the signature it issued.`);
  if (wrappedInputs > 0) notes.push(`Wrapped ${wrappedInputs} tool input(s) that were not JSON objects as {"input": …}: tool_use.input must be an object.`);
  if (renamedIds > 0) notes.push(`Replaced characters outside [a-zA-Z0-9_-] in ${renamedIds} tool id(s) with "_": the Messages API refuses them.`);
  if (messages[0]?.role === 'assistant') notes.push('The first message is from the assistant; the Messages API expects the conversation to start with a user message.');

  const result: AnthropicExport = { messages, notes };
  if (system.length > 0) result.system = system.join('\n\n');
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
