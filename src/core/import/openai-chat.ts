/**
 * OpenAI Chat Completions messages (FORMATS.md §4.1): a bare array of `{role, content}` messages,
 * `{messages: [...]}`, or records holding one (tau-bench `traj`, SWE-agent `history`). A document
 * with several conversations becomes one journal with one root per conversation; their entry ids
 * are `c<k>.m<i>` (record k, message i), a single conversation's are `m<i>`. Locating the
 * conversations and their source lines is shared with anthropic.ts, in ./json-document.ts.
 */
import type { Block, ImageBlock, TextBlock, ToolCallBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { EntryBuilder, base64Bytes, describe, imageFromUrl, isRecord, num, parseJsonLoose, str, toEpochMs } from './builder.ts';
import { UnsupportedTypes, childKey, childSpans, conversationsOf, messagePlace, pathKey, type Conversation, type Span } from './json-document.ts';
import type { DocumentImporter, ImportResult } from './types.ts';

const EXPECTED =
  'OpenAI Chat Completions messages: an array of {role, content} objects, an object with a "messages" array, or records holding one (e.g. tau-bench "traj")';

const ROLES = 'system, developer, user, assistant, tool or function';

interface Context {
  builder: EntryBuilder;
  unsupported: UnsupportedTypes;
  line: number;
}

/** Text and image parts of a Chat Completions `content` (string, null, or an array of parts). */
function contentParts(content: unknown, ctx: Context): Array<TextBlock | ImageBlock> {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  const parts = Array.isArray(content) ? content : [content];
  const out: Array<TextBlock | ImageBlock> = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.length > 0) out.push({ type: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) {
      if (part !== null && part !== undefined) out.push({ type: 'text', text: String(part) });
      continue;
    }
    const type = str(part.type) ?? (typeof part.text === 'string' ? 'text' : '');
    switch (type) {
      case 'text':
      case 'input_text':
      case 'output_text':
        out.push({ type: 'text', text: str(part.text) ?? '' });
        break;
      case 'refusal':
        out.push({ type: 'text', text: str(part.refusal) ?? '' });
        break;
      case 'image_url':
      case 'input_image': {
        const ref = part.image_url;
        const url = isRecord(ref) ? str(ref.url) : str(ref);
        if (url !== undefined) out.push(imageFromUrl(url));
        else if (str(part.file_id) !== undefined) out.push({ type: 'image', mediaType: 'image', bytes: 0, source: 'file' });
        else out.push({ type: 'image', mediaType: 'image', bytes: 0, source: 'url' });
        break;
      }
      case 'image': {
        // An Anthropic-style image block in a list detected as Chat Completions: size it, keep no data.
        const source = isRecord(part.source) ? part.source : {};
        const mediaType = str(source.media_type) ?? 'image';
        if (source.type === 'base64') out.push({ type: 'image', mediaType, bytes: base64Bytes(str(source.data) ?? ''), source: 'base64' });
        else if (typeof source.url === 'string') out.push({ ...imageFromUrl(source.url), ...(source.url.startsWith('data:') ? {} : { mediaType }) });
        else out.push({ type: 'image', mediaType, bytes: 0, source: source.type === 'file' ? 'file' : 'url' });
        break;
      }
      case 'input_audio':
        out.push({ type: 'text', text: '[audio]' });
        break;
      case 'file':
      case 'input_file': {
        const file = isRecord(part.file) ? part.file : part;
        const name = str(file.filename);
        out.push({ type: 'text', text: name ? `[file: ${name}]` : '[file]' });
        break;
      }
      default:
        ctx.unsupported.note(ctx.line, `content part type ${JSON.stringify(type)}`);
        out.push({ type: 'text', text: `[${type || 'unknown part'}]` });
    }
  }
  return out;
}

/** Usage as OpenAI reports it (`prompt_tokens` already includes cached tokens). */
export function openAiUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = num(value.prompt_tokens) ?? num(value.input_tokens);
  const output = num(value.completion_tokens) ?? num(value.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const usage: Usage = { input: input ?? 0, output: output ?? 0 };
  const promptDetails = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : isRecord(value.input_tokens_details) ? value.input_tokens_details : undefined;
  const cached = num(promptDetails?.cached_tokens);
  if (cached !== undefined) usage.cacheRead = cached;
  const outputDetails = isRecord(value.completion_tokens_details) ? value.completion_tokens_details : isRecord(value.output_tokens_details) ? value.output_tokens_details : undefined;
  const reasoning = num(outputDetails?.reasoning_tokens);
  if (reasoning !== undefined) usage.reasoning = reasoning;
  return usage;
}

/** Arguments: a JSON string parsed loosely, an object kept, nothing as `{}`. */
function toolInput(value: unknown): unknown {
  if (typeof value === 'string') return parseJsonLoose(value);
  return value ?? {};
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function importConversation(builder: EntryBuilder, unsupported: UnsupportedTypes, conversation: Conversation, spans: Map<string, Span>, many: boolean): void {
  const listKey = pathKey(conversation.path);
  const k = conversation.record;
  let previous: string | null = null;
  /** Legacy `function_call`s not yet answered by a `function` message, in order. */
  const pendingFunctions: Array<{ id: string; name: string }> = [];
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
    if (typeof role !== 'string') {
      builder.issue(line, `${place} has no "role" (expected ${ROLES}); skipped`);
      return;
    }
    const ctx: Context = { builder, unsupported, line };
    const blocks: Block[] = [];
    let entryRole: 'system' | 'user' | 'assistant' | 'tool';
    switch (role) {
      case 'system':
      case 'developer':
        entryRole = 'system';
        blocks.push(...contentParts(message.content, ctx));
        break;
      case 'user':
        entryRole = 'user';
        blocks.push(...contentParts(message.content, ctx));
        break;
      case 'assistant': {
        entryRole = 'assistant';
        const reasoning = nonEmpty(message.reasoning_content) ?? nonEmpty(message.reasoning);
        if (reasoning !== undefined) blocks.push({ type: 'thinking', text: reasoning });
        blocks.push(...contentParts(message.content, ctx));
        const refusal = nonEmpty(message.refusal);
        if (refusal !== undefined) blocks.push({ type: 'text', text: refusal });
        if (Array.isArray(message.tool_calls)) {
          message.tool_calls.forEach((call: unknown, j) => {
            if (!isRecord(call)) {
              builder.issue(line, `${place}: tool_calls[${j}] is ${describe(call)}, not an object; skipped`);
              return;
            }
            const fn = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : undefined;
            const block: ToolCallBlock = {
              type: 'tool_call',
              callId: nonEmpty(call.id) ?? `tc-${k}-${i}-${j}`,
              name: str(fn?.name) ?? str(call.name) ?? 'unknown',
              input: toolInput(fn ? (fn.arguments ?? fn.input) : call.arguments),
            };
            blocks.push(block);
          });
        }
        if (isRecord(message.function_call)) {
          const name = str(message.function_call.name) ?? 'unknown';
          const id = `fc-${k}-${i}`;
          blocks.push({ type: 'tool_call', callId: id, name, input: toolInput(message.function_call.arguments) });
          pendingFunctions.push({ id, name });
        }
        break;
      }
      case 'tool': {
        entryRole = 'tool';
        const content = contentParts(message.content, ctx);
        const toolName = str(message.name);
        let ids: string[] = [];
        if (nonEmpty(message.tool_call_id) !== undefined) ids = [message.tool_call_id as string];
        else if (Array.isArray(message.tool_call_ids)) ids = message.tool_call_ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
        if (ids.length === 0) ids = [`tr-${k}-${i}`];
        for (const callId of ids) {
          const block: ToolResultBlock = { type: 'tool_result', callId, content: [...content], isError: false };
          if (toolName !== undefined) block.toolName = toolName;
          blocks.push(block);
        }
        break;
      }
      case 'function': {
        entryRole = 'tool';
        const name = str(message.name);
        let at = -1;
        for (let p = pendingFunctions.length - 1; p >= 0; p--) {
          if (pendingFunctions[p]?.name === name) {
            at = p;
            break;
          }
        }
        if (at === -1) at = pendingFunctions.length - 1;
        const pending = at >= 0 ? pendingFunctions.splice(at, 1)[0] : undefined;
        const block: ToolResultBlock = { type: 'tool_result', callId: pending?.id ?? `fc-${k}-${i}`, content: contentParts(message.content, ctx), isError: false };
        if (name !== undefined) block.toolName = name;
        blocks.push(block);
        break;
      }
      default:
        builder.issue(line, `${place} has unknown role ${JSON.stringify(role)} (expected ${ROLES}); skipped`, 'unsupported');
        return;
    }
    const entry = builder.push({
      id: `${conversation.prefix}m${i}`,
      parentId: previous,
      role: entryRole,
      kind: 'message',
      blocks,
      sourceType: role,
      line,
      ...(span && span.lineEnd > span.line ? { lineEnd: span.lineEnd } : {}),
    });
    const usage = openAiUsage(message.usage);
    if (usage) entry.usage = usage;
    const model = str(message.model);
    if (model !== undefined) entry.model = model;
    const timestamp = toEpochMs(message.timestamp ?? message.created_at);
    if (timestamp !== undefined) entry.timestamp = timestamp;
    // SWE-agent demonstrations are replayed examples, not the user's words (FORMATS.md §7.9).
    if (message.is_demo === true) entry.flags = { injected: true };
    previous = entry.id;
  });
}

export const openAiChatImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    const conversations = conversationsOf(doc, EXPECTED);
    const builder = new EntryBuilder('openai-chat');
    const unsupported = new UnsupportedTypes(builder);
    const spans = childSpans(text, conversations.map((conversation) => conversation.path));
    const many = conversations.some((conversation) => conversation.prefix !== '');
    for (const conversation of conversations) importConversation(builder, unsupported, conversation, spans, many);
    if (isRecord(doc)) {
      const model = str(doc.model);
      if (model !== undefined) builder.meta.model = model;
    }
    return builder.result();
  },
};
