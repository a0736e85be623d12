/**
 * Exports a context as OpenAI Chat Completions `messages` (FORMATS.md §4.1), in an order the API
 * accepts: every assistant message with `tool_calls` is followed at once by one `tool` message per
 * call, whatever the context had in between (that is moved after the answers).
 *
 * What cannot be said in Chat Completions: a summary entry is a `user` message (there is no summary
 * role); thinking is left out unless asked for as `reasoning_content`; a `tool` entry's text that
 * is not a result is user text; `isError` and the result's tool name are not sent (the format has
 * no error flag, and `name` on a tool message is not in the current API).
 */
import type { ToolCallBlock, ToolResultBlock } from '../journal/entry.ts';
import type { ContextEntry } from '../compaction/types.ts';
import { imagePlaceholder, isExported, pairToolBlocks, resultParts, speakingRole } from './common.ts';

export interface OpenAITextPart {
  type: 'text';
  text: string;
}

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: 'system'; content: string | OpenAITextPart[] }
  | { role: 'user'; content: string | OpenAITextPart[] }
  | { role: 'assistant'; content: string | OpenAITextPart[] | null; tool_calls?: OpenAIToolCall[]; reasoning_content?: string }
  | { role: 'tool'; tool_call_id: string; content: string | OpenAITextPart[] };

export interface OpenAIExportOptions {
  /**
   * Send thinking text as `reasoning_content` on the assistant message (the DeepSeek / OpenRouter
   * extension). Default false: OpenAI's own API has no such field, so thinking is left out.
   */
  reasoningContent?: boolean;
}

export interface OpenAIExport {
  messages: OpenAIMessage[];
  /** What was left out or moved, and why. */
  notes: string[];
}

/** Chat Completions messages for a context (see `exportOpenAI` for the notes). */
export function toOpenAIMessages(context: readonly ContextEntry[], options: OpenAIExportOptions = {}): OpenAIMessage[] {
  return exportOpenAI(context, options).messages;
}

interface TextDraft {
  role: 'system' | 'user';
  texts: string[];
}
interface AssistantDraft {
  role: 'assistant';
  texts: string[];
  calls: OpenAIToolCall[];
  reasoning: string[];
}
interface ToolDraft {
  role: 'tool';
  callId: string;
  texts: string[];
}
type Draft = TextDraft | AssistantDraft | ToolDraft;

/** Chat Completions messages for a context, with notes on what was left out or reordered. */
export function exportOpenAI(context: readonly ContextEntry[], options: OpenAIExportOptions = {}): OpenAIExport {
  const pairing = pairToolBlocks(context);
  const notes = [...pairing.notes];
  const out: Draft[] = [];
  /** The assistant message whose calls are not all answered yet: nothing else may come before its answers. */
  let open: { draft: AssistantDraft; awaiting: Set<ToolCallBlock> } | undefined;
  /** Messages that arrived while `open` waited; they follow the answers. */
  let deferred: Draft[] = [];
  let moved = 0;
  let thinkingLeftOut = 0;

  const addAssistant = (texts: string[], calls: ToolCallBlock[], reasoning: string[]): void => {
    if (texts.length === 0 && calls.length === 0 && reasoning.length === 0) return;
    const wire = calls.map(toWireCall);
    if (open) {
      open.draft.texts.push(...texts);
      open.draft.calls.push(...wire);
      open.draft.reasoning.push(...reasoning);
      for (const call of calls) open.awaiting.add(call);
      return;
    }
    const draft: AssistantDraft = { role: 'assistant', texts, calls: wire, reasoning };
    out.push(draft);
    if (calls.length > 0) open = { draft, awaiting: new Set(calls) };
  };
  const addText = (role: 'system' | 'user', texts: string[]): void => {
    if (texts.length === 0) return;
    if (open) {
      deferred.push({ role, texts });
      moved++;
    } else {
      out.push({ role, texts });
    }
  };
  const addResult = (result: ToolResultBlock): void => {
    const call = pairing.callOf.get(result);
    if (!call || !open?.awaiting.has(call)) return;
    out.push({ role: 'tool', callId: result.callId, texts: resultParts(result) });
    open.awaiting.delete(call);
    if (open.awaiting.size === 0) {
      open = undefined;
      out.push(...deferred);
      deferred = [];
    }
  };

  for (const item of context) {
    if (!isExported(item)) continue;
    const role = speakingRole(item.role);
    const texts: string[] = [];
    const reasoning: string[] = [];
    const calls: ToolCallBlock[] = [];
    const results: ToolResultBlock[] = [];
    for (const block of item.entry.blocks) {
      switch (block.type) {
        case 'text':
          if (block.text.length > 0) texts.push(block.text);
          break;
        case 'image':
          texts.push(imagePlaceholder(block));
          break;
        case 'thinking':
          if (options.reasoningContent && role === 'assistant' && block.text.length > 0) reasoning.push(block.text);
          else thinkingLeftOut++;
          break;
        case 'tool_call':
          if (pairing.calls.has(block)) calls.push(block);
          break;
        case 'tool_result':
          if (pairing.callOf.has(block)) results.push(block);
          break;
      }
    }
    if (role === 'assistant') {
      addAssistant(texts, calls, reasoning);
      for (const result of results) addResult(result);
    } else {
      // Results answer the assistant before this entry, so they go first.
      for (const result of results) addResult(result);
      addText(role === 'system' ? 'system' : 'user', texts);
      addAssistant([], calls, []);
    }
  }
  // Only reachable if pairing and emission disagree; keep the text rather than lose it.
  out.push(...deferred);

  if (moved > 0) notes.push(`Moved ${moved} message(s) that came between tool calls and their results to after the results (Chat Completions wants the tool messages right after the call).`);
  if (thinkingLeftOut > 0) {
    notes.push(`Left out ${thinkingLeftOut} thinking block(s): Chat Completions has no thinking content${options.reasoningContent ? ' (empty or redacted ones have no text for reasoning_content)' : ' (set reasoningContent to send them as reasoning_content)'}.`);
  }
  const messages: OpenAIMessage[] = [];
  for (const draft of out) {
    const message = finish(draft);
    if (message) messages.push(message);
  }
  return { messages, notes };
}

/**
 * Arguments are a JSON string. A raw-text input (an apply_patch body) is sent as that text when it
 * is not itself JSON, so an importer reads back the same text; anything else is stringified.
 */
function toWireCall(call: ToolCallBlock): OpenAIToolCall {
  let args: string;
  if (typeof call.input === 'string' && !isJson(call.input)) args = call.input;
  else args = JSON.stringify(call.input ?? {}) ?? '{}';
  return { id: call.callId, type: 'function', function: { name: call.name, arguments: args } };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One part stays a plain string; several stay separate parts so block boundaries survive. */
function content(texts: string[]): string | OpenAITextPart[] {
  if (texts.length === 0) return '';
  if (texts.length === 1) return texts[0] ?? '';
  return texts.map((text) => ({ type: 'text', text }));
}

function finish(draft: Draft): OpenAIMessage | undefined {
  switch (draft.role) {
    case 'system':
    case 'user':
      return { role: draft.role, content: content(draft.texts) };
    case 'tool':
      return { role: 'tool', tool_call_id: draft.callId, content: content(draft.texts) };
    case 'assistant': {
      // An assistant message must carry text or calls; reasoning alone says nothing the API takes.
      if (draft.texts.length === 0 && draft.calls.length === 0) return undefined;
      const message: OpenAIMessage = { role: 'assistant', content: draft.texts.length > 0 ? content(draft.texts) : null };
      if (draft.calls.length > 0) message.tool_calls = draft.calls;
      if (draft.reasoning.length > 0) message.reasoning_content = draft.reasoning.join('\n\n');
      return message;
    }
  }
}
