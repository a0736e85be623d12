/**
 * What Settings > Models shows, for the page: the provider presets, the origin a key is bound to
 * (a key is sent only there), and why a request timeout is refused. The requests read the same
 * presets and checks, so what the form accepts is what a request uses.
 */
export { originOf } from '../../llm/remote/http.ts';
export { PROVIDER_PRESETS, type ProviderPreset } from '../../llm/remote/provider-presets.ts';
export { timeoutProblem, type TimeoutSeconds } from '../../llm/remote/timeouts.ts';
