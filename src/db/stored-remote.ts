/**
 * A remote model as it is stored with a job record or a saved comparison: which server, which
 * model, its timeouts, never the API key (read again from the key ring when the job resumes).
 * Typed here, apart from the providers' RemoteConfig, so a stored row does not change shape when a
 * request to a provider does; RemoteConfig is this plus the key fields.
 */

export interface StoredRemote {
  /** Preset id ('openai', 'anthropic', 'ollama', ...) or 'custom'. */
  presetId: string;
  api: 'openai' | 'anthropic';
  baseUrl: string;
  model: string;
  /** No response headers within this long fails, ms; 0 turns it off. */
  connectTimeoutMs?: number;
  /** No body bytes for this long fails, ms; 0 turns it off. */
  idleTimeoutMs?: number;
  /** A live session's whole reply past this long fails, ms. */
  replyTimeoutMs?: number;
}

/** A remote model as a request carries it: the stored fields and the key, which is never stored. */
export interface KeyedRemote extends StoredRemote {
  apiKey?: string;
  keyOrigin?: string;
}
