/**
 * The summarizer part of a worker request (compaction or folding) from Settings > Models: the
 * API key is read from the key ring at the moment of the request and goes only into that request,
 * with the connect, idle-stream and total timeouts Settings holds.
 */
import { keyFields } from '../llm/remote/remote-config.ts';
import { requestTimeouts } from '../llm/remote/timeouts.ts';
import type { CompactRequest } from '../worker/engine/protocol.ts';
import { keyring } from './keyring.ts';
import type { ModelsSlice } from './models-slice.ts';
import { useAppStore } from './store.ts';

export type SummarizerFields = Pick<CompactRequest, 'remote' | 'localModelId' | 'localAppConfig' | 'timeoutMs'> & { summarizer: 'offline' | 'remote' | 'webllm' };

/** Which summarizer Settings picks, without its key or model: what a plan needs to know. */
export function summarizerKindOf(state: Pick<ModelsSlice, 'summarizerKind' | 'localModelId'>): SummarizerFields['summarizer'] {
  if (state.summarizerKind === 'remote') return 'remote';
  return state.summarizerKind === 'local' && state.localModelId ? 'webllm' : 'offline';
}

/** The summarizer chosen in Settings, ready to send: offline when no model is chosen. */
export async function summarizerFields(): Promise<SummarizerFields> {
  const { summarizerKind, remote, localModelId, localModelBaseUrl, timeouts } = useAppStore.getState();
  const timeoutMs = timeouts.total * 1000;
  if (summarizerKind === 'remote') {
    return { summarizer: 'remote', timeoutMs, remote: { ...remote, ...requestTimeouts(timeouts), ...keyFields(await keyring.get(remote.presetId)) } };
  }
  if (summarizerKind === 'local' && localModelId) {
    const base = localModelBaseUrl.trim();
    return { summarizer: 'webllm', timeoutMs, localModelId, ...(base ? { localAppConfig: (await import('../llm/webllm/webllm-models.ts')).selfHostedConfig(base, localModelId) } : {}) };
  }
  return { summarizer: 'offline' };
}

/** "openai · gpt-4o-mini", "the local model X", or undefined when Settings has no model (offline). */
export function modelLabel(state: Pick<ModelsSlice, 'summarizerKind' | 'remote' | 'localModelId'>): string | undefined {
  if (state.summarizerKind === 'remote') return `${state.remote.presetId} · ${state.remote.model}`;
  if (state.summarizerKind === 'local' && state.localModelId) return `the local model ${state.localModelId}`;
  return undefined;
}
