/**
 * The live agent's model from the remote model the user configured in Settings (the same
 * RemoteConfig the summarizers use): an OpenAI-compatible server or Anthropic, with the key held
 * in memory. Importable from Node as well as the browser.
 */
import type { AgentModel } from '../../core/agent/types.ts';
import type { AgentModelConfig } from './agent-common.ts';
import { createAnthropicAgentModel } from './agent-anthropic.ts';
import { createOpenAIAgentModel } from './agent-openai.ts';
import { validateRemote, type RemoteConfig } from '../remote/remote-config.ts';
import { timeoutsOf } from '../remote/timeouts.ts';

/** Tuning that Settings does not hold (fetch, retries, output cap, temperature). */
export type AgentModelOptions = Omit<AgentModelConfig, 'baseUrl' | 'model' | 'apiKey' | 'keyOrigin' | 'providerId'>;

/** Checks the config (RemoteConfigError names what is missing) and makes the model. */
export function createAgentModel(config: RemoteConfig, options: AgentModelOptions = {}): AgentModel {
  validateRemote(config);
  const common: AgentModelConfig = {
    ...timeoutsOf(config),
    ...options,
    baseUrl: config.baseUrl,
    model: config.model.trim(),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.apiKey && config.keyOrigin !== undefined ? { keyOrigin: config.keyOrigin } : {}),
  };
  if (config.api === 'anthropic') return createAnthropicAgentModel({ ...common, providerId: config.presetId === 'custom' ? 'anthropic' : config.presetId });
  return createOpenAIAgentModel({ ...common, ...(config.presetId !== 'custom' ? { providerId: config.presetId } : {}) });
}
