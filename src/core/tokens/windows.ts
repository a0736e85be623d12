/**
 * Context-window presets for the gauge: OpenAI models from gpt-tokenizer's model metadata (their
 * `context_window`), plus the Anthropic windows gpt-tokenizer does not know, which we date here.
 */
import * as models from 'gpt-tokenizer/models';

export interface WindowPreset {
  id: string;
  label: string;
  /** Context window in tokens. */
  tokens: number;
  source: 'gpt-tokenizer' | 'foldlab';
}

/** Anthropic windows as published on 2026-11-01 (200k standard; 1M for the `[1m]` variants). */
const ANTHROPIC_PRESETS: WindowPreset[] = [
  { id: 'claude-200k', label: 'Claude (200k)', tokens: 200_000, source: 'foldlab' },
  { id: 'claude-1m', label: 'Claude [1m] (1M)', tokens: 1_000_000, source: 'foldlab' },
];

/** The default window: the seeds' 200,000 tokens. */
export const DEFAULT_WINDOW_TOKENS = 200_000;

interface ModelSpec {
  name?: string;
  context_window?: number;
  supported_endpoints?: readonly string[];
}

let cached: WindowPreset[] | undefined;

/** Chat-capable models with a known window, newest names first, without dated aliases. */
export function windowPresets(): WindowPreset[] {
  if (cached) return cached;
  const seen = new Set<string>();
  const openai: WindowPreset[] = [];
  for (const [name, value] of Object.entries(models as Record<string, unknown>)) {
    const spec = value as ModelSpec;
    if (typeof spec !== 'object' || spec === null || typeof spec.context_window !== 'number') continue;
    if (/-\d{4}-\d{2}-\d{2}$|-\d{4}$/.test(name)) continue;
    const endpoints = spec.supported_endpoints ?? [];
    if (!endpoints.includes('chat_completions') && !endpoints.includes('responses')) continue;
    if (/audio|realtime|transcribe|tts|image|search|moderation|embedding|computer-use|sora|whisper/.test(name)) continue;
    if (seen.has(name)) continue;
    seen.add(name);
    openai.push({ id: name, label: `${name} (${formatWindow(spec.context_window)})`, tokens: spec.context_window, source: 'gpt-tokenizer' });
  }
  openai.sort((a, b) => b.id.localeCompare(a.id, 'en', { numeric: true }));
  cached = [...ANTHROPIC_PRESETS, ...openai];
  return cached;
}

export function formatWindow(tokens: number): string {
  if (tokens >= 1_000_000) return `${+(tokens / 1_000_000).toFixed(2)}M`;
  if (tokens >= 1000) return `${Math.round(tokens / 1000)}k`;
  return String(tokens);
}
