/**
 * The live agent's model on the Anthropic Messages API: one streamed `/v1/messages` request with
 * the context as alternating user/assistant messages and the tools as `tools`; text, thinking and
 * tool_use blocks (their input streamed as `input_json_delta` pieces) come back as one reply, with
 * usage from message_start and message_delta.
 */
import { toAnthropicMessages } from '../../core/export/anthropic.ts';
import type { Usage } from '../../core/journal/entry.ts';
import type { AgentModel, ModelDelta, ModelReply, ModelRequest, ModelToolCall } from '../../core/agent/types.ts';
import { count, parseToolInput, runAgentRequest, type AgentModelConfig } from './agent-common.ts';
import { anthropicEvents } from '../remote/anthropic-stream.ts';
import { ContextOverflowError, displayUrl, type ProviderRef } from '../remote/errors.ts';
import { outputCap, postWith } from '../remote/http.ts';
import { trimSlashes } from '../remote/provider-presets.ts';
import { anthropicHeaders } from '../remote/request-headers.ts';

/** Output tokens per reply when neither the request nor the config sets a number (the API requires one). */
export const DEFAULT_AGENT_MAX_TOKENS = 8_192;

export interface AnthropicAgentConfig extends AgentModelConfig {
  /** Default `https://api.anthropic.com` (requests go to `{baseUrl}/v1/messages`). */
  baseUrl: string;
}

interface AnthropicEvent {
  type?: string;
  index?: unknown;
  message?: { model?: unknown; usage?: Record<string, unknown> };
  content_block?: { type?: unknown; id?: unknown; name?: unknown; text?: unknown; thinking?: unknown; input?: unknown };
  delta?: { type?: unknown; text?: unknown; thinking?: unknown; partial_json?: unknown; stop_reason?: unknown };
  usage?: Record<string, unknown>;
}

/** A content block being streamed. */
type Block = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; id: string; name: string; json: string; input: unknown } | { kind: 'other' };

export function createAnthropicAgentModel(config: AnthropicAgentConfig): AgentModel {
  const baseUrl = trimSlashes(config.baseUrl || 'https://api.anthropic.com');
  const provider: ProviderRef = { id: config.providerId ?? 'anthropic', label: config.label ?? 'Anthropic', model: config.model, baseUrl: displayUrl(baseUrl) };

  async function once(request: ModelRequest, emit: (delta: ModelDelta) => void): Promise<ModelReply> {
    const exported = toAnthropicMessages(request.context);
    const system = [request.system, exported.system].filter((part): part is string => Boolean(part)).join('\n\n');
    const body = {
      model: config.model,
      max_tokens: outputCap(request.maxOutputTokens, config.maxTokens) ?? DEFAULT_AGENT_MAX_TOKENS,
      ...(system ? { system } : {}),
      messages: exported.messages,
      ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })) } : {}),
      stream: true,
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    };
    const response = await postWith(config, { provider, url: `${baseUrl}/v1/messages`, headers: anthropicHeaders(config.apiKey), body, signal: request.signal });

    let text = '';
    let thinking = '';
    const blocks = new Map<number, Block>();
    const calls: Array<Extract<Block, { kind: 'tool' }>> = [];
    const usage: Usage = { input: 0, output: 0 };
    let model: string | undefined;
    let stopReason: string | undefined;
    for await (const { type, data: event } of anthropicEvents(response, provider, request.signal, () => text.length, config.apiKey)) {
      const data = event as AnthropicEvent;
      const index = typeof data.index === 'number' ? data.index : -1;
      switch (type) {
        case 'message_start':
          if (typeof data.message?.model === 'string') model = data.message.model;
          readUsage(usage, data.message?.usage);
          break;
        case 'content_block_start': {
          const start = data.content_block;
          let block: Block = { kind: 'other' };
          if (start?.type === 'text') block = { kind: 'text' };
          else if (start?.type === 'thinking') block = { kind: 'thinking' };
          else if (start?.type === 'tool_use' && typeof start.id === 'string' && typeof start.name === 'string') {
            block = { kind: 'tool', id: start.id, name: start.name, json: '', input: start.input ?? {} };
            calls.push(block);
            emit({ type: 'tool_call', id: block.id, name: block.name });
          }
          blocks.set(index, block);
          // A block may start with text already in it.
          if (block.kind === 'text' && typeof start?.text === 'string' && start.text) {
            text += start.text;
            emit({ type: 'text', text: start.text });
          }
          break;
        }
        case 'content_block_delta': {
          const block = blocks.get(index);
          const delta = data.delta;
          if (delta?.type === 'text_delta' && typeof delta.text === 'string') {
            text += delta.text;
            emit({ type: 'text', text: delta.text });
          } else if (delta?.type === 'thinking_delta' && typeof delta.thinking === 'string') {
            thinking += delta.thinking;
            emit({ type: 'thinking', text: delta.thinking });
          } else if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string' && block?.kind === 'tool') {
            block.json += delta.partial_json;
          }
          break;
        }
        case 'content_block_stop': {
          const block = blocks.get(index);
          if (block?.kind === 'tool' && block.json !== '') block.input = parseToolInput(block.json);
          break;
        }
        case 'message_delta':
          if (typeof data.delta?.stop_reason === 'string') stopReason = data.delta.stop_reason;
          readUsage(usage, data.usage);
          break;
        default:
          break; // ping, signature_delta, redacted_thinking: nothing the reply keeps
      }
    }
    if (stopReason === 'model_context_window_exceeded') throw new ContextOverflowError(provider, undefined, stopReason);
    const toolCalls: ModelToolCall[] = calls.map((call) => ({ id: call.id, name: call.name, input: call.json !== '' ? parseToolInput(call.json) : call.input }));
    const stop: ModelReply['stop'] = stopReason === 'max_tokens' ? 'length' : toolCalls.length > 0 ? 'tool_use' : 'end';
    const reply: ModelReply = { text, toolCalls, stop, model: model ?? config.model, usage };
    if (thinking) reply.thinking = thinking;
    return reply;
  }

  return {
    kind: 'anthropic',
    model: config.model,
    complete: (request, onDelta) => runAgentRequest(provider, config, request.signal, onDelta, (emit, signal) => once({ ...request, signal }, emit)),
  };
}

/** Input includes cache writes and reads (so it compares across providers); each field only when reported. */
function readUsage(usage: Usage, raw: Record<string, unknown> | undefined): void {
  if (!raw) return;
  const input = count(raw.input_tokens);
  const cacheWrite = count(raw.cache_creation_input_tokens);
  const cacheRead = count(raw.cache_read_input_tokens);
  if (cacheWrite) usage.cacheWrite = cacheWrite;
  if (cacheRead) usage.cacheRead = cacheRead;
  // message_delta may repeat input_tokens without the cache fields message_start gave.
  if (input !== undefined) usage.input = input + (usage.cacheWrite ?? 0) + (usage.cacheRead ?? 0);
  const output = count(raw.output_tokens);
  if (output !== undefined) usage.output = output;
}
