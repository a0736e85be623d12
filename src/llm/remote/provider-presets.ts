/**
 * Where the common model providers listen (OpenAI, Anthropic, OpenRouter, and the local servers),
 * so the settings UI, the summarizers and the live agent's models agree on one list. Free of
 * bundler-only imports, so the Node command line can use it too.
 */

/** One known provider: the wire format it speaks and its default base URL. */
export interface ProviderPreset {
  /** Summarizer id this preset produces ('openai', 'openrouter', 'ollama', ...). */
  id: string;
  label: string;
  /** 'openai': POST {baseUrl}/chat/completions; 'anthropic': POST {baseUrl}/v1/messages. */
  api: 'openai' | 'anthropic';
  baseUrl: string;
  /** False for local servers that accept requests without a key. */
  needsKey: boolean;
  /** What the user must do for the browser to reach it. */
  hint?: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', label: 'OpenAI', api: 'openai', baseUrl: 'https://api.openai.com/v1', needsKey: true },
  { id: 'anthropic', label: 'Anthropic', api: 'anthropic', baseUrl: 'https://api.anthropic.com', needsKey: true },
  { id: 'openrouter', label: 'OpenRouter', api: 'openai', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true },
  { id: 'ollama', label: 'Ollama', api: 'openai', baseUrl: 'http://localhost:11434/v1', needsKey: false, hint: 'Start Ollama with OLLAMA_ORIGINS set to this page\'s origin.' },
  { id: 'lmstudio', label: 'LM Studio', api: 'openai', baseUrl: 'http://localhost:1234/v1', needsKey: false, hint: 'Start the LM Studio server with CORS enabled.' },
  { id: 'vllm', label: 'vLLM', api: 'openai', baseUrl: 'http://localhost:8000/v1', needsKey: false, hint: 'Start vLLM with --allowed-origins for this page\'s origin.' },
  { id: 'llamacpp', label: 'llama.cpp', api: 'openai', baseUrl: 'http://localhost:8080/v1', needsKey: false },
];

/** The preset whose base URL `baseUrl` is (trailing slashes ignored), if any. */
export function presetFor(baseUrl: string): ProviderPreset | undefined {
  const normalized = trimSlashes(baseUrl);
  return PROVIDER_PRESETS.find((preset) => preset.baseUrl === normalized);
}

/** `url` without trailing slashes, so `${base}/path` never doubles them. */
export function trimSlashes(url: string): string {
  return url.trim().replace(/\/+$/, '');
}
