/**
 * Claude Code message content as journal blocks (see ./claude-code.ts): text, thinking, tool calls
 * and results (server tools included), images, documents and unknown parts as short stand-ins; the
 * usage of a response, and the display text of a system line.
 */
import type { Block, ImageBlock, TextBlock, ThinkingBlock, ToolCallBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { base64Bytes, imageFromUrl, isRecord, num, str } from './builder.ts';

type Json = Record<string, unknown>;

/** Claude usage excludes cache tokens from `input_tokens`; the journal counts the whole prompt. */
export function normalizeUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = num(raw.input_tokens);
  const output = num(raw.output_tokens);
  const cacheRead = num(raw.cache_read_input_tokens);
  const cacheWrite = num(raw.cache_creation_input_tokens);
  if (input === undefined && output === undefined && cacheRead === undefined && cacheWrite === undefined) return undefined;
  const usage: Usage = { input: (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0), output: output ?? 0 };
  if (cacheRead !== undefined) usage.cacheRead = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
  return usage;
}

function imageBlock(raw: Json): ImageBlock {
  const source = isRecord(raw.source) ? raw.source : {};
  const mediaType = str(source.media_type) ?? 'image';
  switch (str(source.type)) {
    case 'base64':
      return { type: 'image', mediaType, bytes: base64Bytes(str(source.data) ?? ''), source: 'base64' };
    case 'url': {
      // Only the kind of reference is kept, never the address (a data URL still has a size).
      const url = str(source.url) ?? '';
      return url.startsWith('data:') ? imageFromUrl(url) : { type: 'image', mediaType, bytes: 0, source: 'url' };
    }
    default:
      // `file` (Files API id) and sources newer than this importer: a reference, no inline bytes.
      return { type: 'image', mediaType, bytes: 0, source: 'file' };
  }
}

/** A short stand-in for a part we do not model (web search hits, documents, future types). */
function placeholder(raw: Json): string {
  const type = str(raw.type) ?? 'block';
  const title = str(raw.title) ?? str(raw.tool_name) ?? str(raw.name);
  const url = str(raw.url);
  if (title && url) return `[${type}: ${title} (${url})]`;
  if (title) return `[${type}: ${title}]`;
  const code = str(raw.error_code);
  return code ? `[${type}: ${code}]` : `[${type}]`;
}

/** Parts of a tool result: text and images kept, anything else rendered as a short text. */
function resultParts(content: unknown): Array<TextBlock | ImageBlock> {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  const items = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  const parts: Array<TextBlock | ImageBlock> = [];
  for (const item of items) {
    if (typeof item === 'string') {
      parts.push({ type: 'text', text: item });
    } else if (isRecord(item)) {
      if (item.type === 'text') parts.push({ type: 'text', text: str(item.text) ?? '' });
      else if (item.type === 'image') parts.push(imageBlock(item));
      else if (item.type === 'tool_reference') parts.push({ type: 'text', text: `[tool: ${str(item.tool_name) ?? '?'}]` });
      else if (typeof item.text === 'string') parts.push({ type: 'text', text: item.text });
      else parts.push({ type: 'text', text: placeholder(item) });
    }
  }
  return parts;
}

function documentText(raw: Json): string {
  const source = isRecord(raw.source) ? raw.source : {};
  const label = str(raw.title) ?? str(source.media_type) ?? 'document';
  // A plain-text or content document is model context: keep its text so it is counted.
  if (source.type === 'text' && typeof source.data === 'string') return `[document: ${label}]\n${source.data}`;
  if (source.type === 'content') {
    const text = resultParts(source.content).map((part) => (part.type === 'text' ? part.text : '')).filter(Boolean).join('\n');
    return text ? `[document: ${label}]\n${text}` : `[document: ${label}]`;
  }
  return `[document: ${label}]`;
}

/**
 * One content block of a message. `fallbackId` names a call or result whose id is missing, so it
 * stays an orphan instead of pairing with another id-less block.
 */
function convertBlock(raw: unknown, fallbackId: string): Block | undefined {
  if (typeof raw === 'string') return { type: 'text', text: raw };
  if (!isRecord(raw)) return undefined;
  const type = str(raw.type);
  switch (type) {
    case 'text':
      return { type: 'text', text: str(raw.text) ?? '' };
    case 'thinking': {
      const block: ThinkingBlock = { type: 'thinking', text: str(raw.thinking) ?? str(raw.text) ?? '' };
      const signature = str(raw.signature);
      if (signature !== undefined) block.signature = signature;
      return block;
    }
    case 'redacted_thinking': {
      // The encrypted `data` is the replay blob: kept like a signature, never shown.
      const block: ThinkingBlock = { type: 'thinking', text: '', redacted: true };
      const data = str(raw.data);
      if (data !== undefined) block.signature = data;
      return block;
    }
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const call: ToolCallBlock = { type: 'tool_call', callId: str(raw.id) ?? fallbackId, name: str(raw.name) ?? '(unnamed)', input: raw.input ?? {} };
      return call;
    }
    case 'image':
      return imageBlock(raw);
    case 'document':
      return { type: 'text', text: documentText(raw) };
    default:
      break;
  }
  if (type === 'tool_result' || (type !== undefined && type.endsWith('_tool_result'))) {
    // Server tool results (web_search_tool_result, …) pair with their server_tool_use like any tool.
    const content = raw.content;
    const errorType = isRecord(content) && typeof content.type === 'string' && content.type.endsWith('_error');
    const result: ToolResultBlock = {
      type: 'tool_result',
      callId: str(raw.tool_use_id) ?? fallbackId,
      content: resultParts(content),
      isError: raw.is_error === true || errorType,
    };
    return result;
  }
  if (typeof raw.text === 'string') return { type: 'text', text: raw.text };
  return { type: 'text', text: placeholder(raw) };
}

export function convertContent(content: string | unknown[], lineNo: number): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: Block[] = [];
  content.forEach((raw, i) => {
    const block = convertBlock(raw, `l${lineNo}:${i}`);
    if (block) blocks.push(block);
  });
  return blocks;
}

/** The text of an old-style or subtyped system line, for display (these are not model context). */
export function systemText(value: Json): string {
  const content = str(value.content);
  if (content !== undefined && content.length > 0) return content;
  const subtype = str(value.subtype) ?? 'system';
  const error = errorMessage(value.error) ?? errorMessage(value.cause);
  if (error) return `[${subtype}] ${error}`;
  const duration = num(value.durationMs);
  if (duration !== undefined) return `[${subtype}] ${duration} ms`;
  return `[${subtype}]`;
}

function errorMessage(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (!isRecord(value) || depth > 3) return undefined;
  return str(value.message) ?? errorMessage(value.error, depth + 1);
}
