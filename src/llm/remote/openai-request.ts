/**
 * What the OpenAI-compatible summarizer and agent model send alike: the provider named after the
 * base URL's preset, and the body fields that ask for a stream with usage, cap the output and set
 * the temperature.
 */
import { displayUrl, type ProviderRef } from './errors.ts';
import { presetFor } from './provider-presets.ts';

/** The provider behind `baseUrl` (already without trailing slashes): the config's id and label, else the preset's, else OpenAI's. */
export function openAIProvider(baseUrl: string, config: { providerId?: string; label?: string; model: string }): ProviderRef {
  const preset = presetFor(baseUrl);
  return {
    id: config.providerId ?? preset?.id ?? 'openai',
    label: config.label ?? preset?.label ?? 'OpenAI-compatible server',
    model: config.model,
    baseUrl: displayUrl(baseUrl),
  };
}

/** The field for the output cap: the config's, else `max_completion_tokens` on api.openai.com (newer models refuse `max_tokens`), `max_tokens` elsewhere. */
export function maxTokensField(baseUrl: string, configured?: 'max_tokens' | 'max_completion_tokens'): 'max_tokens' | 'max_completion_tokens' {
  return configured ?? (/^https:\/\/api\.openai\.com\//.test(`${baseUrl}/`) ? 'max_completion_tokens' : 'max_tokens');
}

/** The body's stream, output cap and temperature fields (the cap and temperature only when set). */
export function streamFields(maxTokensParam: 'max_tokens' | 'max_completion_tokens', maxTokens: number | undefined, temperature: number | undefined) {
  return {
    stream: true,
    stream_options: { include_usage: true },
    ...(maxTokens !== undefined ? { [maxTokensParam]: maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  };
}
