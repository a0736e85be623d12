/**
 * The model a live session talks to, from the user's choice: the model configured in Settings >
 * Models (a remote OpenAI-compatible or Anthropic endpoint, with the key read from the key ring
 * at the moment the session starts and sent only to the session's worker), the local WebLLM
 * model of Settings (the engine worker's one copy, reached through a port: webllm-shared.ts), or a
 * scripted model replaying a JSON script (demos, tests).
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { LiveModelChoice } from '../db/live-session-row.ts';
import { keyFields, validateRemote, type RemoteConfig } from '../llm/remote/remote.ts';
import { requestTimeouts } from '../llm/remote/timeouts.ts';
import { keyring } from './keyring.ts';
import { useAppStore } from './store.ts';

/** The model as the session's worker makes it: a script, or the remote config with its key. */
export type LiveModelSpec =
  | { kind: 'scripted'; script: unknown }
  | { kind: 'remote'; config: RemoteConfig }
  | { kind: 'webllm'; modelId: string; appConfig?: AppConfig; /** The port to the engine worker's model, transferred to the session's worker. */ port?: MessagePort };

/** Settings has no model a live session can use: the message says what to choose. */
export class LiveModelError extends Error {
  override name = 'LiveModelError';
}

/** What the Settings choice is called in the setup dialog ("openai · gpt-4o-mini"), or why it cannot be used. */
export function settingsModelLabel(): { label?: string; problem?: string } {
  const { summarizerKind, remote, localModelId } = useAppStore.getState();
  if (summarizerKind === 'remote') return { label: `${remote.presetId} · ${remote.model}` };
  if (summarizerKind === 'local') {
    return { problem: localModelId ? `The local model ${localModelId} is offered below as "Local model (WebLLM)".` : 'Settings > Models has no local model downloaded and chosen yet: download one there, or choose a remote model (a local Ollama or llama.cpp server works), or the scripted demo.' };
  }
  return { problem: 'Settings > Models has no model chosen (offline): choose a remote model there (a local Ollama or llama.cpp server works), or the scripted demo.' };
}

/** The spec the worker makes the model from; a Settings model that cannot be used throws before anything is stored. */
export async function resolveLiveModel(choice: LiveModelChoice): Promise<LiveModelSpec> {
  if (choice.kind === 'scripted') return { kind: 'scripted', script: choice.script };
  if (choice.kind === 'webllm') {
    const base = useAppStore.getState().localModelBaseUrl.trim();
    const appConfig = base ? (await import('../llm/webllm/webllm-models.ts')).selfHostedConfig(base, choice.modelId) : undefined;
    return { kind: 'webllm', modelId: choice.modelId, ...(appConfig ? { appConfig } : {}) };
  }
  const { problem } = settingsModelLabel();
  if (problem) throw new LiveModelError(problem);
  const { remote, timeouts } = useAppStore.getState();
  const config: RemoteConfig = { ...remote, ...requestTimeouts(timeouts), ...keyFields(await keyring.get(remote.presetId)) };
  validateRemote(config);
  return { kind: 'remote', config };
}
