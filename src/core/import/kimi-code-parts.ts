/**
 * The pieces of a Kimi Code wire record that are read the same wherever they occur: content parts
 * (a message's, a streamed `content.part`'s, a tool result's), a message's tool calls in both
 * spellings the wire protocol has had, and a step's token usage. Also the record types that carry
 * nothing the model saw (docs/formats.md, Kimi Code).
 */
import type { Block, ImageBlock, TextBlock, ThinkingBlock, ToolCallBlock, Usage } from '../journal/entry.ts';
import { imageFromUrl, isRecord, num, parseJsonLoose, str } from './builder.ts';

/**
 * Durable record types of the wire (agent-core-v2's `wire-manifest.d.ts` at protocol 1.5, and the
 * older kinds a migrated wire still holds) that change no context: lifecycle, configuration, tools,
 * permissions, tasks, goals, token counting. Counted as metadata lines.
 */
export const KIMI_CODE_METADATA = new Set([
  'turn.prompt', 'turn.steer', 'turn.ended', 'turn.step.retrying', 'prompt.accepted', 'prompt.steered', 'prompt.completed', 'prompt.aborted',
  'full_compaction.begin', 'full_compaction.cancel', 'full_compaction.complete', 'micro_compaction.apply', 'usage.record',
  'llm.tools_snapshot', 'mcp.tools_discovered', 'tools.set_active_tools', 'tools.reset_active_tools', 'tools.register_user_tool',
  'tools.unregister_user_tool', 'tools.update_store', 'permission.set_mode', 'permission.record_approval_result', 'permission.rules.add',
  'plan_mode.enter', 'plan_mode.exit', 'plan_mode.cancel', 'plan.revision', 'swarm_mode.enter', 'swarm_mode.exit', 'tower_mode.enter',
  'tower_mode.exit', 'task.started', 'task.terminated', 'task.waitDelivered', 'cron.add', 'cron.cursor', 'cron.delete', 'goal.create',
  'goal.update', 'goal.clear', 'goal.account_usage', 'goal.continuation', 'forked', 'interaction.request', 'interaction.resolved',
  'interruptionReminder.recorded', 'plugin.session_start', 'runtime.set_binding', 'file_history.checkpoint', 'file_history.tracked',
  'token_counting.measured', 'token_counting.rebased', 'token_counting.truncated', 'token_counting.turn_recorded',
  'context.update_token_count', 'context_size.measured', 'staleGuard.recorded', 'staleGuard.cleared', 'skill.activate',
]);

/** Content parts as blocks; a part of a kind Foldlab does not read is kept as a named stand-in (`[kind]`). */
export function kimiCodeBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: Block[] = [];
  for (const part of Array.isArray(content) ? content : [content]) {
    const block = partBlock(part);
    if (block) appendPart(blocks, block);
  }
  return blocks;
}

function partBlock(part: unknown): Block | undefined {
  if (typeof part === 'string') return part ? { type: 'text', text: part } : undefined;
  if (!isRecord(part)) return undefined;
  switch (part.type) {
    case 'text':
      return { type: 'text', text: str(part.text) ?? '' };
    case 'think': {
      const block: ThinkingBlock = { type: 'thinking', text: str(part.think) ?? '' };
      const encrypted = str(part.encrypted);
      if (encrypted) block.signature = encrypted;
      return block;
    }
    case 'image_url': {
      // kosong's part is `imageUrl: {url}`; the snake spelling is accepted as kimi-cli wrote it.
      const image = isRecord(part.imageUrl) ? part.imageUrl : isRecord(part.image_url) ? part.image_url : {};
      return imageFromUrl(str(image.url) ?? '');
    }
    case 'audio_url':
      return { type: 'text', text: '[audio]' };
    case 'video_url':
      return { type: 'text', text: '[video]' };
    default:
      return { type: 'text', text: `[${str(part.type) ?? 'part'}]` };
  }
}

/** Adds a part as Kimi Code merges streamed parts: text onto text, a thought onto a thought not yet sealed by its signature. */
export function appendPart(blocks: Block[], block: Block): void {
  const last = blocks.at(-1);
  if (last?.type === 'text' && block.type === 'text') last.text += block.text;
  else if (last?.type === 'thinking' && block.type === 'thinking' && last.signature === undefined) {
    last.text += block.text;
    if (block.signature !== undefined) last.signature = block.signature;
  } else blocks.push(block);
}

/** A tool result's content: its text and images, with the `note` the model is shown after the output. */
export function kimiCodeResultContent(output: unknown, note: string | undefined): Array<TextBlock | ImageBlock> {
  const content = kimiCodeBlocks(output).filter((block): block is TextBlock | ImageBlock => block.type === 'text' || block.type === 'image');
  if (!note) return content;
  const only = content.length === 1 ? content[0] : undefined;
  if (only?.type === 'text') return [{ type: 'text', text: `${only.text}\n${note}` }];
  return [...content, { type: 'text', text: note }];
}

/**
 * A message's `toolCalls`: `{id, name, arguments}` (protocol 1.1 and later) or `{id, function: {name,
 * arguments}}` (1.0); arguments are a JSON string or null. A call without an id gets `l<line>:<n>`.
 */
export function kimiCodeToolCalls(calls: unknown, lineNo: number): ToolCallBlock[] {
  const blocks: ToolCallBlock[] = [];
  for (const [index, call] of (Array.isArray(calls) ? calls : []).entries()) {
    if (!isRecord(call)) continue;
    const fn = isRecord(call.function) ? call.function : call;
    const args = fn.arguments;
    blocks.push({ type: 'tool_call', callId: str(call.id) ?? `l${lineNo}:${index}`, name: str(fn.name) ?? 'unknown', input: typeof args === 'string' ? parseJsonLoose(args) : (args ?? {}) });
  }
  return blocks;
}

/** A step's `usage`: `inputOther` excludes the cache, so the prompt is the sum of the three inputs. */
export function kimiCodeUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const other = num(raw.inputOther);
  const output = num(raw.output);
  if (other === undefined && output === undefined) return undefined;
  const cacheRead = num(raw.inputCacheRead) ?? 0;
  const cacheWrite = num(raw.inputCacheCreation) ?? 0;
  const usage: Usage = { input: (other ?? 0) + cacheRead + cacheWrite, output: output ?? 0 };
  if (cacheRead) usage.cacheRead = cacheRead;
  if (cacheWrite) usage.cacheWrite = cacheWrite;
  return usage;
}

/** The text of a compaction's summary: a string (`summary`, or `contextSummary`), or a summary message (older wires). */
export function kimiCodeSummary(record: Record<string, unknown>): string | undefined {
  const summary = record.summary;
  if (typeof summary === 'string') return summary;
  const context = str(record.contextSummary);
  if (context !== undefined) return context;
  if (isRecord(summary) && 'content' in summary) return kimiCodeBlocks(summary.content).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  return undefined;
}
