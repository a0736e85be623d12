/**
 * Summaries from the Anthropic Messages API, called straight from the browser: one streamed
 * request with a fixed system prompt and the rendered prompt as the user message, no tools;
 * retried and overflow-truncated like the other remote providers.
 */
import type { Summarizer, SummaryRequest, SummaryResponse } from '../../core/compaction/summarizer.ts';
import { anthropicEvents } from './anthropic-stream.ts';
import { EmptyReplyError, displayUrl, type ProviderRef } from './errors.ts';
import { outputCap, postWith } from './http.ts';
import { fencePrompt } from '../fence.ts';
import { trimSlashes } from './provider-presets.ts';
import { anthropicHeaders } from './request-headers.ts';
import { attemptMeter, remoteSummarizer, type RemoteSummarizerConfig } from './summarizer-common.ts';

export { ANTHROPIC_VERSION } from './request-headers.ts';
/** Output tokens when neither the task nor the config sets a number (the API requires one). */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8_192;

export interface AnthropicSummarizerConfig extends RemoteSummarizerConfig {
  /** Default `https://api.anthropic.com` (requests go to `{baseUrl}/v1/messages`). */
  baseUrl?: string;
  model: string;
  apiKey: string;
  /** Cap on output tokens (the model's own limit); a task asking for fewer gets its own number. Default 8,192 when the task sets none. */
  maxTokens?: number;
  /** Sampling temperature; omitted when unset. */
  temperature?: number;
  /** Name in messages. Default "Anthropic". */
  label?: string;
  /** Summarizer id. Default 'anthropic'. */
  providerId?: string;
}

interface AnthropicEvent {
  type?: string;
  message?: { model?: unknown; usage?: Record<string, unknown> };
  delta?: { type?: unknown; text?: unknown; stop_reason?: unknown };
  usage?: Record<string, unknown>;
  error?: unknown;
}

export function createAnthropicSummarizer(config: AnthropicSummarizerConfig): Summarizer {
  const baseUrl = trimSlashes(config.baseUrl ?? 'https://api.anthropic.com');
  const provider: ProviderRef = { id: config.providerId ?? 'anthropic', label: config.label ?? 'Anthropic', model: config.model, baseUrl: displayUrl(baseUrl) };

  async function once(request: SummaryRequest, attempt: number): Promise<SummaryResponse> {
    const body = {
      model: config.model,
      max_tokens: outputCap(request.maxTokens, config.maxTokens) ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      system: config.systemPrompt,
      messages: [{ role: 'user', content: fencePrompt(request.prompt) }],
      stream: true,
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    };
    const response = await postWith(config, { provider, url: `${baseUrl}/v1/messages`, headers: anthropicHeaders(config.apiKey), body, signal: request.signal });
    const meter = attemptMeter(request, attempt, config);
    let input = 0;
    let output = 0;
    let model: string | undefined;
    let stopReason: string | undefined;
    for await (const { type, data: event } of anthropicEvents(response, provider, request.signal, () => meter.text.length, config.apiKey)) {
      const data = event as AnthropicEvent;
      switch (type) {
        case 'message_start':
          if (typeof data.message?.model === 'string') model = data.message.model;
          input = inputTokens(data.message?.usage) ?? input;
          output = count(data.message?.usage?.output_tokens) ?? output;
          break;
        case 'content_block_delta':
          if (data.delta?.type === 'text_delta' && typeof data.delta.text === 'string') meter.add(data.delta.text);
          break;
        case 'message_delta':
          if (typeof data.delta?.stop_reason === 'string') stopReason = data.delta.stop_reason;
          output = count(data.usage?.output_tokens) ?? output;
          input = inputTokens(data.usage) ?? input;
          break;
        default:
          // ping, content_block_start/stop, thinking deltas: nothing to keep.
          break;
      }
    }
    if (!meter.text.trim()) throw new EmptyReplyError(provider, stopReason);
    meter.finish(output || undefined);
    return { text: meter.text, model: model ?? config.model, usage: { input, output } };
  }

  return remoteSummarizer(provider, config, once);
}

/** Input tokens including cache writes and reads, when the usage object reports any. */
function inputTokens(usage: Record<string, unknown> | undefined): number | undefined {
  const base = count(usage?.input_tokens);
  if (base === undefined) return undefined;
  return base + (count(usage?.cache_creation_input_tokens) ?? 0) + (count(usage?.cache_read_input_tokens) ?? 0);
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
