/**
 * Summaries from any OpenAI-compatible chat completions server (OpenAI, OpenRouter, Ollama, LM
 * Studio, vLLM, llama.cpp): one streamed request with a fixed system message and the rendered
 * prompt, no tools; retried and overflow-truncated like the other remote providers.
 */
import type { Summarizer, SummaryRequest, SummaryResponse } from '../../core/compaction/summarizer.ts';
import { EmptyReplyError, StreamError } from './errors.ts';
import { StreamMeter, errorFromResponse, outputCap, parseEventData, postWith, rethrowTimeout, sseEvents, statusOfStreamError } from './http.ts';
import { fencePrompt } from '../fence.ts';
import { maxTokensField, openAIProvider, streamFields } from './openai-request.ts';
import { trimSlashes } from './provider-presets.ts';
import { openAIHeaders } from './request-headers.ts';
import { attemptMeter, remoteSummarizer, type RemoteSummarizerConfig } from './summarizer-common.ts';

export interface OpenAISummarizerConfig extends RemoteSummarizerConfig {
  /** Server root including the version, e.g. `https://api.openai.com/v1` (see PROVIDER_PRESETS). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` only when set; local servers need none. */
  apiKey?: string;
  /** Cap on output tokens; a task asking for fewer gets its own number. Default: the task's, else the server's. */
  maxTokens?: number;
  /** Sampling temperature; omitted when unset (some reasoning models refuse any other than 1). */
  temperature?: number;
  /** Name in messages. Default: the preset's label for this base URL, else "OpenAI-compatible server". */
  label?: string;
  /** Summarizer id. Default: the preset's id for this base URL, else 'openai'. */
  providerId?: string;
  /** Field for the output cap. Default: `max_completion_tokens` on api.openai.com (newer models refuse `max_tokens`), `max_tokens` elsewhere. */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
}

interface ChatChunk {
  model?: string;
  choices?: Array<{ delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  error?: unknown;
}

export function createOpenAISummarizer(config: OpenAISummarizerConfig): Summarizer {
  const baseUrl = trimSlashes(config.baseUrl);
  const provider = openAIProvider(baseUrl, config);
  const maxTokensParam = maxTokensField(baseUrl, config.maxTokensParam);

  async function once(request: SummaryRequest, attempt: number): Promise<SummaryResponse> {
    const maxTokens = outputCap(request.maxTokens, config.maxTokens);
    const body = {
      model: config.model,
      messages: [
        { role: 'system', content: config.systemPrompt },
        { role: 'user', content: fencePrompt(request.prompt) },
      ],
      ...streamFields(maxTokensParam, maxTokens, config.temperature),
    };
    const response = await postWith(config, { provider, url: `${baseUrl}/chat/completions`, headers: openAIHeaders(config.apiKey), body, signal: request.signal });
    const meter = attemptMeter(request, attempt, config);
    if (/application\/json/i.test(response.headers.get('content-type') ?? '')) return whole(response, meter);

    let usage: SummaryResponse['usage'];
    let model: string | undefined;
    let finishReason: string | undefined;
    let sawDone = false;
    for await (const event of sseEvents(response, provider, request.signal, () => meter.text.length)) {
      if (event.data.trim() === '[DONE]') {
        sawDone = true;
        break;
      }
      const chunk = parseEventData(event, provider, meter.text.length) as ChatChunk;
      if (chunk.error !== undefined && chunk.error !== null) {
        throw errorFromResponse(provider, statusOfStreamError(chunk), JSON.stringify(chunk), undefined, config.apiKey);
      }
      if (typeof chunk.model === 'string') model ??= chunk.model;
      const choice = chunk.choices?.[0];
      if (typeof choice?.delta?.content === 'string') meter.add(choice.delta.content);
      if (typeof choice?.finish_reason === 'string') finishReason = choice.finish_reason;
      if (chunk.usage) usage = readUsage(chunk.usage);
    }
    if (!sawDone) throw new StreamError(provider, 'the stream ended without its final [DONE]', meter.text.length);
    if (!meter.text.trim()) throw new EmptyReplyError(provider, finishReason);
    meter.finish(usage?.output);
    return { text: meter.text, model: model ?? config.model, ...(usage ? { usage } : {}) };
  }

  /** A server that ignored `stream: true` and sent one chat.completion object. */
  async function whole(response: Response, meter: StreamMeter): Promise<SummaryResponse> {
    let chunk: ChatChunk;
    try {
      chunk = (await response.json()) as ChatChunk;
    } catch (error) {
      rethrowTimeout(error);
      throw new StreamError(provider, 'a reply that is neither an event stream nor JSON', 0);
    }
    if (chunk.error !== undefined && chunk.error !== null) throw errorFromResponse(provider, statusOfStreamError(chunk), JSON.stringify(chunk), undefined, config.apiKey);
    const choice = chunk.choices?.[0];
    const text = typeof choice?.message?.content === 'string' ? choice.message.content : '';
    if (!text.trim()) throw new EmptyReplyError(provider, typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined);
    meter.add(text);
    const usage = chunk.usage ? readUsage(chunk.usage) : undefined;
    meter.finish(usage?.output);
    return { text, model: typeof chunk.model === 'string' ? chunk.model : config.model, ...(usage ? { usage } : {}) };
  }

  return remoteSummarizer(provider, config, once);
}

function readUsage(usage: NonNullable<ChatChunk['usage']>): { input: number; output: number } {
  return { input: toCount(usage.prompt_tokens), output: toCount(usage.completion_tokens) };
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
