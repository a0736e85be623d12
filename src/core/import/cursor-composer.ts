/**
 * One Cursor composer (a conversation of Cursor's chat store, docs/formats.md) read as a session:
 * `{composerId, name, conversation: [bubble, ...]}`, the inline form older Cursor versions stored
 * and the form cursor-store.ts assembles from a `state.vscdb`.
 *
 * Decisions, following what the bubbles hold:
 * - A bubble of `type` 1 is the user's message (its `text`, its images by count); `type` 2 is one
 *   model output: `thinking.text` as thinking, `text`, and its `toolFormerData` as one tool call
 *   (`toolCallId`, `name`, the arguments from `rawArgs` or `params`). A call whose `status` is
 *   final (`completed`, `error`, `cancelled`, ...) or that has a `result` gets a tool entry right
 *   after it with the result text; `status: "error"` marks it an error.
 * - `tokenCount` is the bubble's usage when it counts anything (Cursor leaves zeros on many).
 * - An assistant bubble with nothing in it (Cursor writes some while it streams) is counted as
 *   understood and makes no entry; a bubble of another type is reported by line and skipped.
 * - The composer's `parentComposerId` (set when another composer lists it as a sub-composer) links
 *   it to that session as a subagent.
 */
import type { Block, Entry, Usage } from '../journal/entry.ts';
import { EntryBuilder, describe, isRecord, num, parseJsonLoose, str, toEpochMs } from './builder.ts';
import { describeShape } from './detect.ts';
import { childKey, childSpans, pathKey } from './json-document.ts';
import { ImportFormatError, type DocumentImporter, type ImportResult } from './types.ts';

/** A tool call still running has one of these statuses: no result entry is written for it. */
const RUNNING = new Set(['loading', 'running', 'pending', 'generating', 'streaming']);

/** Is this a Cursor composer with its bubbles inline? */
export function isCursorComposer(doc: unknown): boolean {
  return isRecord(doc) && typeof doc.composerId === 'string' && Array.isArray(doc.conversation);
}

export const cursorComposerImporter: DocumentImporter = {
  parse(doc: unknown, text: string): ImportResult {
    if (!isCursorComposer(doc) || !isRecord(doc)) {
      throw new ImportFormatError(`the JSON document is ${describeShape(doc)}, not a Cursor composer; expected {composerId, conversation: [{type, bubbleId, text, ...}]}`);
    }
    const builder = new EntryBuilder('cursor');
    const meta = builder.meta;
    meta.sessionId = doc.composerId as string;
    const name = str(doc.name);
    if (name) meta.title = name;
    const model = str(doc.modelName);
    if (model) meta.model = model;
    const parent = str(doc.parentComposerId);
    if (parent) meta.subagent = { parentSessionId: parent, agentId: meta.sessionId };
    const spans = childSpans(text, [['conversation']]);
    const listKey = pathKey(['conversation']);
    const created = toEpochMs(doc.createdAt);
    if (created !== undefined) meta.createdAt = created;
    (doc.conversation as unknown[]).forEach((bubble, i) => {
      builder.lines++;
      const line = spans.get(childKey(listKey, i))?.line ?? 1;
      if (!isRecord(bubble)) {
        builder.issue(line, `conversation[${i}] is ${describe(bubble)}, not a bubble; skipped`);
        return;
      }
      readBubble(builder, bubble, i, line, created);
    });
    return builder.result();
  },
};

function readBubble(builder: EntryBuilder, bubble: Record<string, unknown>, i: number, line: number, created: number | undefined): void {
  const id = str(bubble.bubbleId) ?? `b${i + 1}`;
  const timestamp = toEpochMs(bubble.createdAt) ?? (i === 0 ? created : undefined);
  const common = { id, line, ...(timestamp !== undefined ? { timestamp } : {}) };
  const text = str(bubble.text) ?? '';
  const images: Block[] = Array.isArray(bubble.images) ? bubble.images.map((image: unknown) => ({ type: 'image', mediaType: (isRecord(image) ? str(image.mimeType) : undefined) ?? 'image', bytes: 0, source: 'file' })) : [];
  if (bubble.type === 1) {
    const blocks: Block[] = [...(text ? [{ type: 'text' as const, text }] : []), ...images];
    if (blocks.length === 0) {
      builder.ignoredLines++;
      return;
    }
    builder.push({ ...common, role: 'user', kind: 'message', blocks, sourceType: 'bubble/user' });
    return;
  }
  if (bubble.type !== 2) {
    builder.issue(line, `conversation[${i}] (bubble ${JSON.stringify(id)}) has type ${describe(bubble.type)} (expected 1, a user message, or 2, an assistant message); skipped`, 'unsupported');
    return;
  }
  const blocks: Block[] = [];
  const thinking = isRecord(bubble.thinking) ? str(bubble.thinking.text) : undefined;
  if (thinking) {
    const signature = isRecord(bubble.thinking) ? str(bubble.thinking.signature) : undefined;
    blocks.push({ type: 'thinking', text: thinking, ...(signature ? { signature } : {}) });
  }
  if (text) blocks.push({ type: 'text', text });
  blocks.push(...images);
  const tool = isRecord(bubble.toolFormerData) ? bubble.toolFormerData : undefined;
  const callId = tool ? (str(tool.toolCallId) ?? `${id}.t`) : undefined;
  if (tool && callId) {
    const raw = str(tool.rawArgs) ?? str(tool.params);
    const input = raw === undefined ? (isRecord(tool.params) ? tool.params : {}) : parseJsonLoose(raw);
    blocks.push({ type: 'tool_call', callId, name: str(tool.name) ?? (typeof tool.tool === 'number' ? `tool ${tool.tool}` : 'unknown'), input });
  }
  if (blocks.length === 0) {
    builder.ignoredLines++;
    return;
  }
  const entry: Entry = builder.push({ ...common, role: 'assistant', kind: 'message', blocks, sourceType: 'bubble/assistant' });
  const model = isRecord(bubble.modelInfo) ? str(bubble.modelInfo.modelName) : undefined;
  if (model) entry.model = model;
  const usage = tokenUsage(bubble.tokenCount);
  if (usage) entry.usage = usage;
  if (!tool || !callId) return;
  const status = str(tool.status);
  if (tool.result === undefined && (status === undefined || RUNNING.has(status))) return;
  const result = tool.result === undefined ? (str(tool.error) ?? `(${status ?? 'no result'})`) : typeof tool.result === 'string' ? tool.result : JSON.stringify(tool.result);
  const name = str(tool.name);
  builder.push({
    id: `${id}/result`, line, role: 'tool', kind: 'message', sourceType: 'bubble/toolFormerData',
    blocks: [{ type: 'tool_result', callId, content: result ? [{ type: 'text', text: result }] : [], isError: status === 'error', ...(name ? { toolName: name } : {}) }],
    ...(timestamp !== undefined ? { timestamp } : {}),
  });
}

/** A bubble's `tokenCount` as usage, when it counts anything. */
function tokenUsage(tokenCount: unknown): Usage | undefined {
  if (!isRecord(tokenCount)) return undefined;
  const input = num(tokenCount.inputTokens) ?? 0;
  const output = num(tokenCount.outputTokens) ?? 0;
  return input > 0 || output > 0 ? { input, output } : undefined;
}
