/**
 * Anthropic Messages API documents (FORMATS.md §5): `{system?, messages:[...]}`, a bare array of
 * messages, or records holding `messages`. `system` becomes one system entry at the root of its
 * conversation. Tool results live in role `tool` entries: a user message's content is split into
 * runs (tool results / everything else) in order, one entry per run, so "tool_results then text"
 * gives a `tool` entry followed by a `user` entry. Server tool results in an assistant message
 * (`web_search_tool_result`, ...) are split out the same way; the response's usage stays on its
 * first assistant entry.
 */
import type { Block, ImageBlock, TextBlock, ThinkingBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { EntryBuilder, base64Bytes, describe, imageFromUrl, isRecord, num, parseJsonLoose, str, toEpochMs } from './builder.ts';
import { UnsupportedTypes, childKey, childSpans, conversationsOf, messagePlace, pathKey, type Conversation, type Span } from './json-document.ts';
import type { DocumentImporter, ImportResult } from './types.ts';

const EXPECTED =
  'Anthropic Messages: an object {system?, messages:[{role, content}]}, an array of {role, content} messages, or records holding "messages"';

interface Context {
  unsupported: UnsupportedTypes;
  line: number;
}

function imageBlock(source: unknown): ImageBlock {
  if (!isRecord(source)) return { type: 'image', mediaType: 'image', bytes: 0, source: 'url' };
  const mediaType = str(source.media_type) ?? 'image';
  switch (source.type) {
    case 'base64':
      return { type: 'image', mediaType, bytes: base64Bytes(str(source.data) ?? ''), source: 'base64' };
    case 'url': {
      const image = imageFromUrl(str(source.url) ?? '');
      return image.source === 'base64' ? image : { ...image, mediaType };
    }
    case 'file':
      return { type: 'image', mediaType, bytes: 0, source: 'file' };
    default:
      return { type: 'image', mediaType, bytes: 0, source: 'url' };
  }
}

function documentText(block: Record<string, unknown>): string {
  const source = isRecord(block.source) ? block.source : undefined;
  const mediaType = str(source?.media_type) ?? (source?.type === 'text' ? 'text/plain' : str(source?.type));
  return mediaType ? `[document: ${mediaType}]` : '[document]';
}

/** Content of a `tool_result`: a string, or text / image (/ document) blocks. */
function resultContent(content: unknown, ctx: Context): Array<TextBlock | ImageBlock> {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  const out: Array<TextBlock | ImageBlock> = [];
  for (const part of Array.isArray(content) ? content : [content]) {
    if (typeof part === 'string') {
      out.push({ type: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) continue;
    switch (part.type) {
      case 'text':
        out.push({ type: 'text', text: str(part.text) ?? '' });
        break;
      case 'image':
        out.push(imageBlock(part.source));
        break;
      case 'document':
        out.push({ type: 'text', text: documentText(part) });
        break;
      default: {
        const type = str(part.type) ?? 'unknown';
        ctx.unsupported.note(ctx.line, `tool_result content block type ${JSON.stringify(type)}`);
        out.push({ type: 'text', text: `[${type}]` });
      }
    }
  }
  return out;
}

/** Content of a server tool result (`web_search_tool_result`, `code_execution_tool_result`, ...). */
function serverResultContent(content: unknown): { parts: TextBlock[]; isError: boolean } {
  const parts: TextBlock[] = [];
  let isError = false;
  for (const item of Array.isArray(content) ? content : [content]) {
    if (!isRecord(item)) {
      if (typeof item === 'string' && item.length > 0) parts.push({ type: 'text', text: item });
      continue;
    }
    const type = str(item.type) ?? '';
    if (type.endsWith('_error') || 'error_code' in item) {
      isError = true;
      parts.push({ type: 'text', text: `error: ${str(item.error_code) ?? type}` });
    } else if (typeof item.url === 'string') {
      const title = str(item.title);
      parts.push({ type: 'text', text: title ? `${title} — ${item.url}` : item.url });
    } else if (typeof item.stdout === 'string' || typeof item.stderr === 'string') {
      const text = [str(item.stdout), str(item.stderr)].filter((part) => part).join('\n');
      parts.push({ type: 'text', text });
      if (num(item.return_code) !== undefined && item.return_code !== 0) isError = true;
    } else if (typeof item.text === 'string') {
      parts.push({ type: 'text', text: item.text });
    } else {
      parts.push({ type: 'text', text: `[${type || 'result'}]` });
    }
  }
  return { parts, isError };
}

/** One content block, and whether it belongs in a `tool` entry. */
function convertBlock(block: unknown, ctx: Context, synthetic: string): { block: Block; tool: boolean } | undefined {
  if (typeof block === 'string') return { block: { type: 'text', text: block }, tool: false };
  if (!isRecord(block)) return undefined;
  const type = str(block.type) ?? '';
  switch (type) {
    case 'text':
      return { block: { type: 'text', text: str(block.text) ?? '' }, tool: false };
    case 'thinking': {
      const thinking: ThinkingBlock = { type: 'thinking', text: str(block.thinking) ?? '' };
      const signature = str(block.signature);
      if (signature !== undefined) thinking.signature = signature;
      return { block: thinking, tool: false };
    }
    case 'redacted_thinking': {
      const thinking: ThinkingBlock = { type: 'thinking', text: '', redacted: true };
      const data = str(block.data);
      if (data !== undefined) thinking.signature = data;
      return { block: thinking, tool: false };
    }
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const input = typeof block.input === 'string' ? parseJsonLoose(block.input) : (block.input ?? {});
      return { block: { type: 'tool_call', callId: str(block.id) || synthetic, name: str(block.name) ?? 'unknown', input }, tool: false };
    }
    case 'tool_result':
    case 'mcp_tool_result':
      return {
        block: { type: 'tool_result', callId: str(block.tool_use_id) || synthetic, content: resultContent(block.content, ctx), isError: block.is_error === true },
        tool: true,
      };
    case 'image':
      return { block: imageBlock(block.source), tool: false };
    case 'document':
      return { block: { type: 'text', text: documentText(block) }, tool: false };
    default: {
      if (type.endsWith('_tool_result')) {
        const { parts, isError } = serverResultContent(block.content);
        const result: ToolResultBlock = {
          type: 'tool_result',
          callId: str(block.tool_use_id) || synthetic,
          toolName: type.slice(0, -'_tool_result'.length),
          content: parts,
          isError,
        };
        return { block: result, tool: true };
      }
      ctx.unsupported.note(ctx.line, `content block type ${JSON.stringify(type || 'unknown')}`);
      return { block: { type: 'text', text: `[${type || 'unknown block'}]` }, tool: false };
    }
  }
}

function systemBlocks(system: unknown, ctx: Context): TextBlock[] {
  if (typeof system === 'string') return system.length > 0 ? [{ type: 'text', text: system }] : [];
  const out: TextBlock[] = [];
  for (const block of Array.isArray(system) ? system : [system]) {
    if (typeof block === 'string') out.push({ type: 'text', text: block });
    else if (isRecord(block) && typeof block.text === 'string') out.push({ type: 'text', text: block.text });
    else if (isRecord(block)) {
      const type = str(block.type) ?? 'unknown';
      ctx.unsupported.note(ctx.line, `system block type ${JSON.stringify(type)}`);
      out.push({ type: 'text', text: `[${type}]` });
    }
  }
  return out;
}

/** Anthropic usage: `input_tokens` excludes cache reads and writes; normalized input includes them. */
function anthropicUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.input_tokens);
  const output = num(value.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const cacheRead = num(value.cache_read_input_tokens);
  const cacheWrite = num(value.cache_creation_input_tokens);
  const usage: Usage = { input: (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0), output: output ?? 0 };
  if (cacheRead !== undefined) usage.cacheRead = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
  return usage;
}

function lineFields(span: Span | undefined): { line: number; lineEnd?: number } {
  if (!span) return { line: 1 };
  return span.lineEnd > span.line ? { line: span.line, lineEnd: span.lineEnd } : { line: span.line };
}

function importConversation(builder: EntryBuilder, unsupported: UnsupportedTypes, conversation: Conversation, spans: Map<string, Span>, many: boolean): void {
  const listKey = pathKey(conversation.path);
  const ownerKey = pathKey(conversation.ownerPath);
  let previous: string | null = null;
  const owner = conversation.owner;
  if (owner && owner.system !== undefined && owner.system !== null) {
    const span = spans.get(childKey(ownerKey, 'system'));
    const ctx: Context = { unsupported, line: span?.line ?? 1 };
    builder.lines++;
    const entry = builder.push({
      id: `${conversation.prefix}system`,
      parentId: null,
      role: 'system',
      kind: 'message',
      blocks: systemBlocks(owner.system, ctx),
      sourceType: 'system',
      ...lineFields(span),
    });
    previous = entry.id;
  }
  conversation.messages.forEach((message, i) => {
    builder.lines++;
    const span = spans.get(childKey(listKey, i));
    const line = span?.line ?? 1;
    const place = messagePlace(conversation, many, i);
    if (!isRecord(message)) {
      builder.issue(line, `${place} is ${describe(message)}, not a {role, content} object; skipped`);
      return;
    }
    const role = message.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      builder.issue(
        line,
        typeof role === 'string' ? `${place} has unknown role ${JSON.stringify(role)} (expected user or assistant); skipped` : `${place} has no "role" (expected user or assistant); skipped`,
        typeof role === 'string' ? 'unsupported' : 'malformed',
      );
      return;
    }
    const ctx: Context = { unsupported, line };
    const content = message.content;
    // Runs of consecutive blocks that go to the same kind of entry, in order.
    const runs: Array<{ tool: boolean; blocks: Block[] }> = [];
    if (typeof content === 'string') {
      if (content.length > 0) runs.push({ tool: false, blocks: [{ type: 'text', text: content }] });
    } else if (Array.isArray(content)) {
      content.forEach((raw: unknown, j) => {
        const converted = convertBlock(raw, ctx, `${conversation.prefix}m${i}.b${j}`);
        if (!converted) {
          builder.issue(line, `${place}: content[${j}] is ${describe(raw)}, not a content block; skipped`);
          return;
        }
        const last = runs[runs.length - 1];
        if (last && last.tool === converted.tool) last.blocks.push(converted.block);
        else runs.push({ tool: converted.tool, blocks: [converted.block] });
      });
    } else if (content !== null && content !== undefined) {
      builder.issue(line, `${place}: content is ${describe(content)}, expected a string or an array of content blocks; skipped`);
    }
    if (runs.length === 0) runs.push({ tool: false, blocks: [] });
    const response = message.type === 'message';
    const usage = anthropicUsage(message.usage);
    const model = str(message.model);
    const timestamp = toEpochMs(message.timestamp ?? message.created_at);
    let usagePlaced = false;
    const first = builder.entries.length;
    runs.forEach((run, r) => {
      const entry = builder.push({
        id: r === 0 ? `${conversation.prefix}m${i}` : `${conversation.prefix}m${i}.${r}`,
        parentId: previous,
        role: run.tool ? 'tool' : role,
        kind: 'message',
        blocks: run.blocks,
        sourceType: run.tool ? `${role}/tool_result` : response ? 'message' : role,
        ...lineFields(span),
      });
      if (!run.tool && role === 'assistant' && !usagePlaced) {
        if (usage) entry.usage = usage;
        usagePlaced = true;
      }
      if (model !== undefined && !run.tool) entry.model = model;
      if (timestamp !== undefined) entry.timestamp = timestamp;
      previous = entry.id;
    });
    const firstEntry = builder.entries[first];
    if (usage && !usagePlaced && firstEntry) firstEntry.usage = usage;
  });
}

export const anthropicImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    const conversations = conversationsOf(doc, EXPECTED);
    const builder = new EntryBuilder('anthropic');
    const unsupported = new UnsupportedTypes(builder);
    const containers = conversations.flatMap((conversation) => (conversation.owner ? [conversation.path, conversation.ownerPath] : [conversation.path]));
    const spans = childSpans(text, containers);
    const many = conversations.some((conversation) => conversation.prefix !== '');
    for (const conversation of conversations) importConversation(builder, unsupported, conversation, spans, many);
    if (isRecord(doc)) {
      const model = str(doc.model);
      if (model !== undefined) builder.meta.model = model;
    }
    return builder.result();
  },
};
