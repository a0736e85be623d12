/**
 * Decoding of Codex rollout response items (see ./codex.ts): reasoning, tool calls and their
 * outputs, message content parts and images, and which user messages are harness-injected text.
 */
import type { Block, EntryFlags, ImageBlock, TextBlock, ThinkingBlock, ToolCallBlock } from '../journal/entry.ts';
import { base64Bytes, imageFromUrl, isRecord, num, parseJsonLoose, str, type EntryDraft } from './builder.ts';

/** Text a harness puts in user messages; a user message made only of these is not the user's words. */
const INJECTED_PREFIXES = [
  '<environment_context',
  '<user_instructions',
  '# AGENTS.md instructions',
  '<permissions instructions',
  '<INSTRUCTIONS>',
  '<user_shell_command',
  '<turn_aborted',
  '<subagent_notification',
  '<collaboration_mode',
  '<skill',
];

/** Tool names for call items that carry none of their own. */
const CALL_NAMES: Record<string, string | undefined> = {
  local_shell_call: 'local_shell',
  web_search_call: 'web_search',
  tool_search_call: 'tool_search',
};

export const OUTPUT_TYPES = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'tool_search_output',
  'mcp_tool_call_output',
]);
export function reasoningBlock(p: Record<string, unknown>): ThinkingBlock {
  const parts: string[] = [];
  for (const list of [p.summary, p.content]) {
    if (!Array.isArray(list)) continue;
    for (const part of list) {
      const text = isRecord(part) ? str(part.text) : undefined;
      if (text) parts.push(text);
    }
  }
  const block: ThinkingBlock = { type: 'thinking', text: parts.join('\n\n') };
  const encrypted = str(p.encrypted_content);
  if (encrypted) {
    block.signature = encrypted;
    if (block.text.length === 0) block.redacted = true;
  }
  return block;
}

export function callBlock(type: string, p: Record<string, unknown>, lineNo: number): ToolCallBlock {
  const callId = str(p.call_id) ?? str(p.id) ?? `l${lineNo}`;
  let name = str(p.name) ?? CALL_NAMES[type] ?? type;
  let input: unknown;
  switch (type) {
    case 'custom_tool_call':
      input = p.input ?? ''; // freeform text (an apply_patch body), never parsed
      break;
    case 'local_shell_call':
    case 'web_search_call':
      name = CALL_NAMES[type] ?? type;
      input = p.action ?? {};
      break;
    default: {
      const args = p.arguments;
      input = typeof args === 'string' ? parseJsonLoose(args) : (args ?? {});
    }
  }
  const block: ToolCallBlock = { type: 'tool_call', callId, name, input };
  if (type === 'web_search_call' || (type === 'tool_search_call' && p.execution !== 'local')) block.hosted = true;
  return block;
}

/** Content parts of a message or a tool output: text and images, in order. */
export function contentBlocks(content: unknown): Array<TextBlock | ImageBlock> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const list = Array.isArray(content) ? content : isRecord(content) ? [content] : [];
  const blocks: Array<TextBlock | ImageBlock> = [];
  for (const part of list) {
    if (typeof part === 'string') {
      blocks.push({ type: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) continue;
    const type = str(part.type) ?? '';
    if (type === 'input_image' || type === 'image' || type === 'output_image') {
      blocks.push(imageBlock(part));
      continue;
    }
    const text = str(part.text) ?? str(part.refusal);
    if (text !== undefined) blocks.push({ type: 'text', text });
    // encrypted_content parts and unknown parts without text carry nothing readable.
  }
  return blocks;
}

function imageBlock(part: Record<string, unknown>): ImageBlock {
  const url = str(part.image_url) ?? (isRecord(part.image_url) ? str(part.image_url.url) : undefined);
  if (url) return imageFromUrl(url);
  const data = str(part.data);
  if (data) return { type: 'image', mediaType: str(part.mimeType) ?? str(part.mime_type) ?? 'image', bytes: base64Bytes(data), source: 'base64' };
  return { type: 'image', mediaType: 'image', bytes: 0, source: 'url' };
}

/**
 * A tool output: a string (older shell outputs are JSON `{output, metadata:{exit_code}}` inside
 * the string), an array of content parts, or a single part.
 */
export function decodeOutput(output: unknown): { content: Array<TextBlock | ImageBlock>; isError: boolean } {
  if (typeof output === 'string') {
    if (output.startsWith('{')) {
      const parsed = parseJsonLoose(output);
      if (isRecord(parsed) && typeof parsed.output === 'string' && isRecord(parsed.metadata)) {
        const exitCode = num(parsed.metadata.exit_code);
        if (exitCode !== undefined) return { content: [{ type: 'text', text: parsed.output }], isError: exitCode !== 0 };
      }
    }
    return { content: [{ type: 'text', text: output }], isError: false };
  }
  if (isRecord(output) && typeof output.type !== 'string') {
    // FunctionCallOutputPayload written as an object: {content, success}.
    if (typeof output.content === 'string' || Array.isArray(output.content)) {
      return { content: contentBlocks(output.content), isError: output.success === false };
    }
    return { content: [{ type: 'text', text: safeStringify(output) }], isError: false };
  }
  return { content: contentBlocks(output), isError: false };
}

export function isInjected(blocks: readonly Block[]): boolean {
  let texts = 0;
  for (const block of blocks) {
    if (block.type !== 'text') continue;
    const text = block.text.trimStart();
    if (text.length === 0) continue;
    texts++;
    if (!INJECTED_PREFIXES.some((prefix) => text.startsWith(prefix))) return false;
  }
  return texts > 0;
}

export function modelOfCollaboration(mode: unknown): string | undefined {
  if (!isRecord(mode)) return undefined;
  return str(mode.model) ?? (isRecord(mode.settings) ? str(mode.settings.model) : undefined);
}

export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** Adds the optional fields that are defined, so entries carry no `undefined` keys. */
export function withOptional(
  draft: EntryDraft,
  optional: { timestamp?: number | undefined; model?: string | undefined; flags?: EntryFlags | undefined },
): EntryDraft {
  if (optional.timestamp !== undefined) draft.timestamp = optional.timestamp;
  if (optional.model !== undefined) draft.model = optional.model;
  if (optional.flags !== undefined) draft.flags = optional.flags;
  return draft;
}
