/**
 * The live agent's model on any OpenAI-compatible Chat Completions server (OpenAI, OpenRouter,
 * Ollama, llama.cpp, LM Studio, vLLM): one streamed `/chat/completions` request with the context
 * as messages and the tools as functions; text, reasoning and `tool_calls` deltas (accumulated by
 * index) come back as one reply. Only fields every such server accepts are sent.
 */
import { exportOpenAI, type OpenAIMessage } from '../../core/export/openai.ts';
import type { Usage } from '../../core/journal/entry.ts';
import type { AgentModel, ModelDelta, ModelReply, ModelRequest, ModelToolCall } from '../../core/agent/types.ts';
import { count, newCallId, parseToolInput, runAgentRequest, type AgentModelConfig } from './agent-common.ts';
import { ContextOverflowError, StreamError, type ProviderRef } from '../remote/errors.ts';
import { errorFromResponse, outputCap, parseEventData, postWith, rethrowTimeout, sseEvents, statusOfStreamError } from '../remote/http.ts';
import { maxTokensField, openAIProvider, streamFields } from '../remote/openai-request.ts';
import { trimSlashes } from '../remote/provider-presets.ts';
import { openAIHeaders } from '../remote/request-headers.ts';

export interface OpenAIAgentConfig extends AgentModelConfig {
  /** Field for the output cap. Default: `max_completion_tokens` on api.openai.com, `max_tokens` elsewhere. */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  /** Send earlier thinking back as `reasoning_content` (DeepSeek, OpenRouter). Default false. */
  reasoningContent?: boolean;
}

interface ToolCallDelta {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

interface ChatMessage {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: ToolCallDelta[];
}

interface ChatChunk {
  model?: unknown;
  choices?: Array<{ delta?: ChatMessage; message?: ChatMessage; finish_reason?: unknown }>;
  usage?: Record<string, unknown> | null;
  error?: unknown;
}

/** A tool call being put together from its deltas. */
interface CallSlot {
  id: string | undefined;
  name: string;
  args: string;
  announced: boolean;
}

export function createOpenAIAgentModel(config: OpenAIAgentConfig): AgentModel {
  const baseUrl = trimSlashes(config.baseUrl);
  const provider = openAIProvider(baseUrl, config);
  const maxTokensParam = maxTokensField(baseUrl, config.maxTokensParam);

  async function once(request: ModelRequest, emit: (delta: ModelDelta) => void): Promise<ModelReply> {
    const maxTokens = outputCap(request.maxOutputTokens, config.maxTokens);
    const messages = withSystem(request.system, exportOpenAI(request.context, { reasoningContent: config.reasoningContent ?? false }).messages);
    const body = {
      model: config.model,
      messages,
      ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })) } : {}),
      ...streamFields(maxTokensParam, maxTokens, config.temperature),
    };
    const response = await postWith(config, { provider, url: `${baseUrl}/chat/completions`, headers: openAIHeaders(config.apiKey), body, signal: request.signal });
    const reply = new ReplyBuilder(provider, config.model, emit);
    if (/application\/json/i.test(response.headers.get('content-type') ?? '')) {
      // A server that ignored `stream: true` and sent one chat.completion object.
      let chunk: ChatChunk;
      try {
        chunk = (await response.json()) as ChatChunk;
      } catch (error) {
        rethrowTimeout(error);
        throw new StreamError(provider, 'a reply that is neither an event stream nor JSON', 0);
      }
      reply.read(chunk, 'message', config.apiKey);
      return reply.finish();
    }
    let sawDone = false;
    for await (const event of sseEvents(response, provider, request.signal, () => reply.text.length)) {
      if (event.data.trim() === '[DONE]') {
        sawDone = true;
        break;
      }
      reply.read(parseEventData(event, provider, reply.text.length) as ChatChunk, 'delta', config.apiKey);
    }
    if (!sawDone) throw new StreamError(provider, 'the stream ended without its final [DONE]', reply.text.length);
    return reply.finish();
  }

  return {
    kind: 'openai',
    model: config.model,
    complete: (request, onDelta) => runAgentRequest(provider, config, request.signal, onDelta, (emit, signal) => once({ ...request, signal }, emit)),
  };
}

/**
 * The system prompt first, joined with the context's leading system entries (the folder's
 * CODE_LAW.md): many local chat templates take one system message, at the start only.
 */
function withSystem(system: string, messages: readonly OpenAIMessage[]): OpenAIMessage[] {
  const parts = [system];
  let i = 0;
  for (; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'system') break;
    parts.push(typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n\n'));
  }
  return [{ role: 'system', content: parts.filter((part) => part.length > 0).join('\n\n') }, ...messages.slice(i)];
}

/** Accumulates chunks (streamed deltas, or one whole message) into a reply. */
class ReplyBuilder {
  text = '';
  private thinking = '';
  private readonly slots: CallSlot[] = [];
  private finishReason: string | undefined;
  private model: string | undefined;
  private usage: Usage | undefined;

  constructor(private readonly provider: ProviderRef, private readonly configModel: string, private readonly emit: (delta: ModelDelta) => void) {}

  read(chunk: ChatChunk, field: 'delta' | 'message', secret: string | undefined): void {
    if (chunk.error !== undefined && chunk.error !== null) {
      throw errorFromResponse(this.provider, statusOfStreamError(chunk), JSON.stringify(chunk), undefined, secret);
    }
    if (typeof chunk.model === 'string' && chunk.model) this.model ??= chunk.model;
    const choice = chunk.choices?.[0];
    const part = choice?.[field];
    if (part) {
      // DeepSeek and llama.cpp send `reasoning_content`; Ollama and OpenRouter `reasoning`.
      const reasoning = typeof part.reasoning_content === 'string' ? part.reasoning_content : typeof part.reasoning === 'string' ? part.reasoning : '';
      if (reasoning) {
        this.thinking += reasoning;
        this.emit({ type: 'thinking', text: reasoning });
      }
      if (typeof part.content === 'string' && part.content) {
        this.text += part.content;
        this.emit({ type: 'text', text: part.content });
      }
      if (Array.isArray(part.tool_calls)) part.tool_calls.forEach((call, i) => this.addCall(call, i, field === 'message'));
    }
    if (typeof choice?.finish_reason === 'string') this.finishReason = choice.finish_reason;
    if (chunk.usage) {
      const cached = count((chunk.usage.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens);
      const reasoning = count((chunk.usage.completion_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens);
      this.usage = { input: count(chunk.usage.prompt_tokens) ?? 0, output: count(chunk.usage.completion_tokens) ?? 0 };
      if (cached) this.usage.cacheRead = cached;
      if (reasoning) this.usage.reasoning = reasoning;
    }
  }

  /**
   * One `tool_calls` item: a new call when its index (on servers that send none: its id, or a
   * name) is new; otherwise more of the arguments of the call at that index.
   */
  private addCall(call: ToolCallDelta, position: number, whole: boolean): void {
    const id = typeof call.id === 'string' && call.id ? call.id : undefined;
    let slot: CallSlot | undefined;
    if (typeof call.index === 'number') slot = this.slots[call.index];
    else if (whole) slot = this.slots[position];
    else if (id) slot = this.slots.find((s) => s.id === id);
    // Without index or id, a name starts a new call (a call's later pieces never repeat it).
    else if (typeof call.function?.name !== 'string' || call.function.name === '') slot = this.slots[this.slots.length - 1];
    if (!slot) {
      slot = { id, name: '', args: '', announced: false };
      if (typeof call.index === 'number') this.slots[call.index] = slot;
      else this.slots.push(slot);
    }
    slot.id ??= id;
    if (typeof call.function?.name === 'string') slot.name += call.function.name;
    const args = call.function?.arguments;
    if (typeof args === 'string') slot.args += args;
    else if (args !== undefined && args !== null) slot.args += JSON.stringify(args); // Ollama's native shape: an object
    if (!slot.announced && slot.name) {
      slot.id ??= newCallId();
      slot.announced = true;
      this.emit({ type: 'tool_call', id: slot.id, name: slot.name });
    }
  }

  finish(): ModelReply {
    // z.ai reports an overflow as a finish reason instead of an error.
    if (this.finishReason === 'model_context_window_exceeded') throw new ContextOverflowError(this.provider, undefined, this.finishReason);
    const toolCalls: ModelToolCall[] = this.slots
      .filter((slot): slot is CallSlot => slot !== undefined && slot.name !== '')
      .map((slot) => ({ id: slot.id ?? newCallId(), name: slot.name, input: parseToolInput(slot.args) }));
    const stop: ModelReply['stop'] = this.finishReason === 'length' ? 'length' : toolCalls.length > 0 ? 'tool_use' : 'end';
    const reply: ModelReply = { text: this.text, toolCalls, stop, model: this.model ?? this.configModel };
    if (this.thinking) reply.thinking = this.thinking;
    if (this.usage) reply.usage = this.usage;
    return reply;
  }
}
