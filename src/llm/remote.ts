/** One remote summarizer from the settings the user chose (preset, base URL, model, key in memory). */
import type { Summarizer } from '../core/compaction/summarizer.ts';
import { createAnthropicSummarizer } from './anthropic.ts';
import type { TokenCallback } from './http.ts';
import { createOpenAISummarizer } from './openai.ts';
import type { RetryOptions } from './retry.ts';
import { SUMMARIZER_SYSTEM_PROMPT_ID } from './presets.ts';
import { validateRemote, type RemoteConfig } from './remote-config.ts';

export { RemoteConfigError, keyFields, validateRemote, type RemoteConfig } from './remote-config.ts';

/** `onRetry` hears of each wait before a retry (to show "rate limited — retrying in N s"). */
export function createRemoteSummarizer(config: RemoteConfig, onToken?: TokenCallback, onRetry?: RetryOptions['onRetry']): Summarizer {
  validateRemote(config);
  const common = { model: config.model.trim(), ...(config.keyOrigin !== undefined ? { keyOrigin: config.keyOrigin } : {}), ...(onToken ? { onToken } : {}), ...(onRetry ? { retry: { onRetry } } : {}) };
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
