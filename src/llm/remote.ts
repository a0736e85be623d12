/** One remote summarizer from the settings the user chose (preset, base URL, model, key in memory). */
import type { Summarizer } from '../core/compaction/summarizer.ts';
import { createAnthropicSummarizer } from './anthropic.ts';
import type { TokenCallback } from './http.ts';
import { createOpenAISummarizer } from './openai.ts';
import type { RetryOptions } from './retry.ts';
import { SUMMARIZER_SYSTEM_PROMPT_ID } from './presets.ts';

export interface RemoteConfig {
  /** Preset id ('openai', 'anthropic', 'ollama', ...) or 'custom'. */
  presetId: string;
  api: 'openai' | 'anthropic';
  baseUrl: string;
  model: string;
  /** Held in memory only; never stored with the run. */
  apiKey?: string;
}

export class RemoteConfigError extends Error {
  override name = 'RemoteConfigError';
}

/** Checks what a request needs before any network call; the message names the missing field. */
export function validateRemote(config: RemoteConfig): void {
  if (!/^https?:\/\/[^\s/]+/.test(config.baseUrl.trim())) throw new RemoteConfigError(`The base URL must start with http:// or https://; got "${config.baseUrl}".`);
  if (config.model.trim().length === 0) throw new RemoteConfigError('Choose a model name (e.g. gpt-4o-mini, claude-haiku-4-5, llama3.1).');
  if (config.api === 'anthropic' && !config.apiKey) throw new RemoteConfigError('Anthropic needs an API key.');
}

/** `onRetry` hears of each wait before a retry (to show "rate limited — retrying in N s"). */
export function createRemoteSummarizer(config: RemoteConfig, onToken?: TokenCallback, onRetry?: RetryOptions['onRetry']): Summarizer {
  validateRemote(config);
  const common = { model: config.model.trim(), ...(onToken ? { onToken } : {}), ...(onRetry ? { retry: { onRetry } } : {}) };
  if (config.api === 'anthropic') {
    return withSystemPrompt(createAnthropicSummarizer({ ...common, baseUrl: config.baseUrl, apiKey: config.apiKey ?? '', providerId: config.presetId === 'custom' ? 'anthropic' : config.presetId }));
  }
  return withSystemPrompt(createOpenAISummarizer({ ...common, baseUrl: config.baseUrl, ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.presetId !== 'custom' ? { providerId: config.presetId } : {}) }));
}

/** Both providers send prompts/summarizer-system.md as the system message: named so its version is recorded with each run. */
function withSystemPrompt(summarizer: Summarizer): Summarizer {
  summarizer.systemPrompt = SUMMARIZER_SYSTEM_PROMPT_ID;
  return summarizer;
}
