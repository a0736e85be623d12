/**
 * The live agent's model on WebLLM (a model on the user's GPU, in WebLLM's own worker). WebLLM
 * 0.2.86's own `tools` only works for five Hermes models, forbids a system prompt of ours and
 * forces every reply to be a JSON list of calls (no final answer in words), so it cannot drive an
 * agent. Instead the tools are described in the system message and calls are read from the reply
 * in the `<tool_call>{"name", "arguments"}</tool_call>` form that Qwen, Hermes and Llama 3.x
 * chat models are trained on; results go back as `<tool_response>` user text. How well a small
 * model follows this varies: a call whose JSON cannot be read stays in the reply as text.
 */
import { exportOpenAI, type OpenAIMessage } from '../../core/export/openai.ts';
import type { ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import { ContextOverflowError, modelStopped, type AgentModel, type AgentToolSpec, type ModelDelta, type ModelReply, type ModelRequest, type ModelToolCall } from '../../core/agent/types.ts';
import { newCallId } from './agent-common.ts';
import { generationInterrupt } from '../webllm/generation-interrupt.ts';
import { mapWebLLMError, type WebLLMEngine } from '../webllm/webllm.ts';

export interface WebLLMAgentOptions {
  /** The WebLLM model id, as reported with each reply. */
  modelId: string;
  /** The loaded engine, or how to get it (e.g. the first call loads the model). */
  engine: WebLLMEngine | (() => Promise<WebLLMEngine>);
  /** Sampling temperature; default: the model's own. */
  temperature?: number;
}

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

/** The system message: the agent's, then the tools and how to call them. */
export function toolProtocolPrompt(system: string, tools: readonly AgentToolSpec[]): string {
  if (tools.length === 0) return system;
  const list = tools.map((tool) => JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })).join('\n');
  return `${system}\n\n# Tools\n\nYou may call one or more functions to help with the user's request. The functions:\n<tools>\n${list}\n</tools>\n\n` +
    `To call a function, reply with a JSON object inside <tool_call></tool_call> tags, one per call:\n${OPEN}\n{"name": "<function-name>", "arguments": {<arguments as JSON>}}\n${CLOSE}\n` +
    'Write nothing after your calls: their results come back in <tool_response></tool_response> tags. When you can answer, reply in plain words without any <tool_call>.';
}

/** Chat Completions messages as WebLLM takes them: one system message first, plain string contents, tool traffic as text. */
export function webLLMMessages(system: string, messages: readonly OpenAIMessage[]): Array<{ role: 'system' | 'user' | 'assistant'; content: string }> {
  const systemParts = [system];
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  const push = (role: 'user' | 'assistant', content: string): void => {
    const last = out[out.length - 1];
    if (last?.role === role) last.content += `\n\n${content}`;
    else out.push({ role, content });
  };
  const text = (content: OpenAIMessage['content']): string => (typeof content === 'string' ? content : (content ?? []).map((part) => part.text).join('\n\n'));
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        systemParts.push(text(message.content));
        break;
      case 'user':
        push('user', text(message.content));
        break;
      case 'tool':
        push('user', `<tool_response>\n${text(message.content)}\n</tool_response>`);
        break;
      case 'assistant': {
        const calls = (message.tool_calls ?? []).map((call) => `${OPEN}\n{"name": ${JSON.stringify(call.function.name)}, "arguments": ${argumentsJson(call.function.arguments)}}\n${CLOSE}`);
        push('assistant', [text(message.content), ...calls].filter((part) => part.length > 0).join('\n'));
        break;
      }
    }
  }
  return [{ role: 'system', content: systemParts.filter((part) => part.length > 0).join('\n\n') }, ...out];
}

function argumentsJson(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return JSON.stringify(args);
  }
}

/** A reply's text split into thinking (`<think>`), the words shown, and the calls; `shown` holds back a half-written tag. */
export function splitReply(raw: string, final: boolean): { thinking: string; shown: string; calls: Array<{ name: string; input: unknown }> } {
  let text = raw;
  let thinking = '';
  const think = /^\s*<think>([\s\S]*?)(<\/think>|$)/.exec(text);
  if (think) {
    thinking = think[1]!.trim();
    text = think[2] ? text.slice(think[0].length) : '';
  }
  const calls: Array<{ name: string; input: unknown }> = [];
  const start = text.indexOf(OPEN);
  let shown = start < 0 ? text : text.slice(0, start);
  if (start < 0 && !final) {
    // Hold back what may be the start of a tag ("<tool_c").
    for (let n = Math.min(OPEN.length - 1, shown.length); n > 0; n--) {
      if (OPEN.startsWith(shown.slice(-n))) {
        shown = shown.slice(0, -n);
        break;
      }
    }
  }
  if (start >= 0 && final) {
    const unread: string[] = [];
    for (const part of text.slice(start).split(OPEN).slice(1)) {
      const body = part.split(CLOSE)[0]!.trim();
      const call = readCall(body);
      if (call) calls.push(call);
      else unread.push(`${OPEN}${part}`);
    }
    if (unread.length > 0) shown += unread.join('');
  }
  return { thinking, shown: final ? shown.trimEnd() : shown, calls };
}

function readCall(body: string): { name: string; input: unknown } | undefined {
  try {
    const value = JSON.parse(body) as { name?: unknown; arguments?: unknown; parameters?: unknown };
    if (typeof value.name !== 'string' || value.name === '') return undefined;
    let input = value.arguments ?? value.parameters ?? {};
    if (typeof input === 'string') {
      try {
        input = JSON.parse(input);
      } catch {
        // arguments given as text that is not JSON: kept as the text
      }
    }
    return { name: value.name, input };
  } catch {
    return undefined;
  }
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (the promise goes on). */
function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(modelStopped());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(modelStopped());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createWebLLMAgentModel(options: WebLLMAgentOptions): AgentModel {
  const { modelId } = options;
  const engine = (): Promise<WebLLMEngine> => (typeof options.engine === 'function' ? options.engine() : Promise.resolve(options.engine));

  async function complete(request: ModelRequest, onDelta?: (delta: ModelDelta) => void): Promise<ModelReply> {
    const { signal } = request;
    if (signal.aborted) throw modelStopped();
    const current = await engine();
    if (signal.aborted) throw modelStopped();
    const body: ChatCompletionRequestStreaming = {
      stream: true,
      stream_options: { include_usage: true },
      messages: webLLMMessages(toolProtocolPrompt(request.system, request.tools), exportOpenAI(request.context).messages),
      ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
    const stop = generationInterrupt(() => current.interruptGenerate());
    const interrupt = () => stop.interrupt();
    signal.addEventListener('abort', interrupt, { once: true });
    let raw = '';
    let shownSent = 0;
    let thinkingSent = 0;
    let finish: string | undefined;
    let usage: ModelReply['usage'];
    const read = (async () => {
      try {
        const stream = await current.chat.completions.create(body);
        // Read to the end even after an abort: WebLLM keeps its generation lock until the stream ends.
        for await (const chunk of stream) {
          stop.chunk(chunk);
          const choice = chunk.choices[0];
          if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
          if (choice?.finish_reason) finish = choice.finish_reason;
          const delta = choice?.delta.content;
          if (!delta || signal.aborted) continue;
          raw += delta;
          const { thinking, shown } = splitReply(raw, false);
          if (thinking.length > thinkingSent) onDelta?.({ type: 'thinking', text: thinking.slice(thinkingSent) });
          thinkingSent = Math.max(thinkingSent, thinking.length);
          if (shown.length > shownSent) onDelta?.({ type: 'text', text: shown.slice(shownSent) });
          shownSent = Math.max(shownSent, shown.length);
        }
      } finally {
        signal.removeEventListener('abort', interrupt);
      }
    })();
    try {
      // Stop answers at once; the rest of the stream is drained in the background.
      await untilAborted(read, signal);
    } catch (error) {
      if (signal.aborted) {
        read.catch(() => undefined);
        throw modelStopped();
      }
      const mapped = mapWebLLMError(error, modelId);
      if (mapped.name === 'ContextOverflowError') throw new ContextOverflowError(mapped.message);
      throw mapped;
    }
    if (signal.aborted || finish === 'abort') throw modelStopped();
    const { thinking, shown, calls } = splitReply(raw, true);
    const toolCalls: ModelToolCall[] = calls.map((call) => ({ id: newCallId(), name: call.name, input: call.input }));
    for (const call of toolCalls) onDelta?.({ type: 'tool_call', id: call.id, name: call.name });
    const reply: ModelReply = { text: shown, toolCalls, stop: finish === 'length' ? 'length' : toolCalls.length > 0 ? 'tool_use' : 'end', model: modelId };
    if (thinking) reply.thinking = thinking;
    if (usage) reply.usage = usage;
    return reply;
  }

  return { kind: 'webllm', model: modelId, complete };
}
