/** One remote summarizer from the settings the user chose (preset, base URL, model, key in memory), with the bundled system prompt. */
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import type { TokenCallback } from './http.ts';
import type { RetryOptions } from './retry.ts';
import { SUMMARIZER_SYSTEM_PROMPT } from './presets.ts';
import type { RemoteConfig } from './remote-config.ts';
import { createRemoteSummarizerWith } from './remote-summarizer.ts';

export { RemoteConfigError, keyFields, validateRemote, type RemoteConfig } from './remote-config.ts';

/** `onRetry` hears of each wait before a retry (to show "rate limited — retrying in N s"). */
export function createRemoteSummarizer(config: RemoteConfig, onToken?: TokenCallback, onRetry?: RetryOptions['onRetry']): Summarizer {
  return createRemoteSummarizerWith(config, SUMMARIZER_SYSTEM_PROMPT, { ...(onToken ? { onToken } : {}), ...(onRetry ? { retry: { onRetry } } : {}) });
}
