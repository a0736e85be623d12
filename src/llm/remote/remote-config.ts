/**
 * The remote model the user configured in Settings (preset, API, base URL, model, key in memory)
 * and the checks a request needs before any network call. Shared by the summarizers and the live
 * agent's models; free of bundler-only imports, so the Node command line can use it too.
 */
import type { RequestTimeouts } from './timeouts.ts';

/** `connectTimeoutMs` / `idleTimeoutMs` (Settings > Models) apply to every request made with it. */
export interface RemoteConfig extends RequestTimeouts {
  /** Preset id ('openai', 'anthropic', 'ollama', ...) or 'custom'. */
  presetId: string;
  api: 'openai' | 'anthropic';
  baseUrl: string;
  model: string;
  /** Held in memory only; never stored with the run. */
  apiKey?: string;
  /** The origin `apiKey` was entered for: the request is refused if the base URL points elsewhere. */
  keyOrigin?: string;
}

/** The key fields of a config from a key ring's bound key (nothing when there is none). */
export function keyFields(bound: { key: string; origin: string } | undefined): Pick<RemoteConfig, 'apiKey' | 'keyOrigin'> {
  return bound ? { apiKey: bound.key, keyOrigin: bound.origin } : {};
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
