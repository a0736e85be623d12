/**
 * Summaries from any OpenAI-compatible chat completions server (OpenAI, OpenRouter, Ollama, LM
 * Studio, vLLM, llama.cpp): one streamed request with a fixed system message and the rendered
 * prompt, no tools; retried and overflow-truncated like the other remote providers.
 */
import type { Summarizer, SummaryRequest, SummaryResponse } from '../core/compaction/summarizer.ts';
import { EmptyReplyError, StreamError, displayUrl, type ProviderRef } from './errors.ts';
import { StreamMeter, errorFromResponse, outputCap, parseEventData, post, sseEvents, statusOfStreamError, type TokenCallback } from './http.ts';
import { fencePrompt } from './fence.ts';
import { inertResponse } from './inert-output.ts';
import { withOverflowRetry } from './overflow.ts';
import { SUMMARIZER_SYSTEM_PROMPT, presetFor, trimSlashes } from './presets.ts';
import { openAIHeaders } from './request-headers.ts';
import { withRetry, type RetryOptions } from './retry.ts';

export interface OpenAISummarizerConfig {
  /** Server root including the version, e.g. `https://api.openai.com/v1` (see PROVIDER_PRESETS). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` only when set; local servers need none. */
  apiKey?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Cap on output tokens; a task asking for fewer gets its own number. Default: the task's, else the server's. */
  maxTokens?: number;
  /** Sampling temperature; omitted when unset (some reasoning models refuse any other than 1). */
  temperature?: number;
  /** Name in messages. Default: the preset's label for this base URL, else "OpenAI-compatible server". */
  label?: string;
  /** Summarizer id. Default: the preset's id for this base URL, else 'openai'. */
  providerId?: string;
  /** Streaming text for a live view, with tokens per second. */
  onToken?: TokenCallback;
  /** Retry tuning (max 3 retries, 500 ms base backoff, 60 s retry-after cap by default). */
  retry?: Omit<RetryOptions, 'signal' | 'label'>;
  /** Field for the output cap. Default: `max_completion_tokens` on api.openai.com (newer models refuse `max_tokens`), `max_tokens` elsewhere. */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  /** Clock for tokens per second (ms). Default performance.now. */
  now?: () => number;
}

interface ChatChunk {
  model?: string;
  choices?: Array<{ delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  error?: unknown;
}

export function createOpenAISummarizer(config: OpenAISummarizerConfig): Summarizer {
  const baseUrl = trimSlashes(config.baseUrl);
  const preset = presetFor(baseUrl);
  const provider: ProviderRef = {
    id: config.providerId ?? preset?.id ?? 'openai',
    label: config.label ?? preset?.label ?? 'OpenAI-compatible server',
    model: config.model,
    baseUrl: displayUrl(baseUrl),
  };
  const maxTokensParam = config.maxTokensParam ?? (/^https:\/\/api\.openai\.com\//.test(`${baseUrl}/`) ? 'max_completion_tokens' : 'max_tokens');
  const now = config.now ?? (() => performance.now());

  async function once(request: SummaryRequest, attempt: number): Promise<SummaryResponse> {
    const maxTokens = outputCap(request.maxTokens, config.maxTokens);
    const body = {
      model: config.model,
      messages: [
        { role: 'system', content: SUMMARIZER_SYSTEM_PROMPT },
        { role: 'user', content: fencePrompt(request.prompt) },
      ],
      stream: true,
      stream_options: { include_usage: true },
      ...(maxTokens !== undefined ? { [maxTokensParam]: maxTokens } : {}),
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    };
    const headers = openAIHeaders(config.apiKey);
    const response = await post({
      provider, url: `${baseUrl}/chat/completions`, headers, body, signal: request.signal,
      fetch: config.fetch ?? globalThis.fetch, ...(config.apiKey ? { secret: config.apiKey } : {}),
    });
    const meter = new StreamMeter(request.taskId, attempt, config.onToken, now);
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
    } catch {
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

  return {
    id: provider.id,
    label: `${provider.label} · ${config.model}`,
    summarize: (request) => withOverflowRetry(
      (req) => withRetry((attempt) => once(req, attempt), { ...config.retry, signal: req.signal, label: provider.label }),
      request,
    ).then(inertResponse),
  };
}

function readUsage(usage: NonNullable<ChatChunk['usage']>): { input: number; output: number } {
  return { input: toCount(usage.prompt_tokens), output: toCount(usage.completion_tokens) };
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
