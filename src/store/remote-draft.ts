/**
 * The remote summarizer being edited in Settings > Models, apart from the one in use: a
 * configuration becomes the summarizer only when the user saves it, so a failed "Test connection"
 * or a half-typed base URL changes nothing. Choosing another provider preset never carries the
 * model name over: a model of one server means nothing to another.
 */
import { originOf } from '../llm/remote/http.ts';
import { PROVIDER_PRESETS } from '../llm/remote/provider-presets.ts';
import { createRemoteSummarizer } from '../llm/remote/remote.ts';
import type { RemoteSettings } from './models-slice.ts';

/**
 * The draft after choosing `presetId`: the preset's wire format and base URL, and the saved
 * model when it is the saved configuration's preset, else no model (the user names one).
 */
export function draftForPreset(saved: RemoteSettings, draft: RemoteSettings, presetId: string): RemoteSettings {
  if (presetId === saved.presetId) return { ...saved };
  const preset = PROVIDER_PRESETS.find((p) => p.id === presetId);
  if (!preset) return { presetId: 'custom', api: 'openai', baseUrl: draft.baseUrl, model: '' };
  return { presetId: preset.id, api: preset.api, baseUrl: preset.baseUrl, model: '' };
}

/** What keeps the draft from being saved, in one sentence; undefined when it can be. */
export function draftProblem(draft: RemoteSettings): string | undefined {
  let url: URL;
  try {
    url = new URL(draft.baseUrl.trim());
  } catch {
    return `The base URL "${draft.baseUrl}" is not an address: write it as http(s)://host[:port]/path.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `The base URL must start with http:// or https://, not ${url.protocol}.`;
  if (draft.model.trim() === '') return 'Name the model this server should summarize with.';
  return undefined;
}

export function sameRemote(a: RemoteSettings, b: RemoteSettings): boolean {
  return a.presetId === b.presetId && a.api === b.api && a.baseUrl.trim() === b.baseUrl.trim() && a.model.trim() === b.model.trim();
}

/** How long "Test connection" waits for the whole answer, ms. */
export const CONNECTION_TEST_TIMEOUT_MS = 30_000;

/**
 * "Test connection": one tiny request with the draft and the key typed for it (bound to the draft's
 * base URL), answered with the model that replied and its text; a failure throws the request's
 * error, which says what went wrong. Nothing is saved either way.
 */
export async function testRemoteConnection(draft: RemoteSettings, key: string): Promise<{ model: string; text: string }> {
  const summarizer = createRemoteSummarizer({ ...draft, ...(key ? { apiKey: key, keyOrigin: originOf(draft.baseUrl) } : {}) });
  const reply = await summarizer.summarize({
    taskId: 'connection-test', promptId: 'connection-test', prompt: 'Reply with the single word OK.', entries: [], serialized: '', vars: {}, maxTokens: 16,
    signal: AbortSignal.timeout(CONNECTION_TEST_TIMEOUT_MS),
  });
  return { model: reply.model, text: reply.text };
}
