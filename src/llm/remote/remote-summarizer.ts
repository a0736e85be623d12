/**
 * One remote summarizer (Anthropic or OpenAI-compatible) from a RemoteConfig and the text of the
 * system message. Free of bundler-only imports: the page passes the system prompt from its bundle
 * (remote.ts), the command line reads it from prompts/ on disk, and both send the same requests.
 */
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import { createAnthropicSummarizer } from './anthropic.ts';
import type { TokenCallback } from './http.ts';
import { createOpenAISummarizer } from './openai.ts';
import type { RetryOptions } from './retry.ts';
import { validateRemote, type RemoteConfig } from './remote-config.ts';
import { timeoutsOf, type RequestTimeouts } from './timeouts.ts';

/** Prompt file id (prompts/summarizer-system.md) of the system message of every remote summary request. */
export const SUMMARIZER_SYSTEM_PROMPT_ID = 'summarizer-system';

/** What the page's Settings do not hold: streaming text, retry notices and tuning, timeouts, the fetch to use. */
export interface RemoteSummarizerOptions extends RequestTimeouts {
  onToken?: TokenCallback;
  /** Retry tuning; `onRetry` hears of each wait before a retry (to show "rate limited — retrying in N s"). */
  retry?: Omit<RetryOptions, 'signal' | 'label'>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** Checks the config (RemoteConfigError names what is missing) and makes the summarizer; its system message is `systemPrompt`. */
export function createRemoteSummarizerWith(config: RemoteConfig, systemPrompt: string, options: RemoteSummarizerOptions = {}): Summarizer {
  validateRemote(config);
  const common = { ...timeoutsOf(config), ...options, systemPrompt, model: config.model.trim(), ...(config.keyOrigin !== undefined ? { keyOrigin: config.keyOrigin } : {}) };
  const summarizer = config.api === 'anthropic'
    ? createAnthropicSummarizer({ ...common, baseUrl: config.baseUrl, apiKey: config.apiKey ?? '', providerId: config.presetId === 'custom' ? 'anthropic' : config.presetId })
    : createOpenAISummarizer({ ...common, baseUrl: config.baseUrl, ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.presetId !== 'custom' ? { providerId: config.presetId } : {}) });
  // Named so the system prompt's version is recorded with each run.
  summarizer.systemPrompt = SUMMARIZER_SYSTEM_PROMPT_ID;
  return summarizer;
}
