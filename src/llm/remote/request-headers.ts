/**
 * The headers of a request to each wire format, shared by the summarizers and the live agent's
 * models: JSON in, an event stream out, and the key in the header the provider reads (sent only
 * when there is one: local servers need none).
 */

/** The Anthropic API version header every request carries. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Headers of an OpenAI-compatible chat completions request (`Authorization: Bearer` only with a key). */
export function openAIHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

/** Headers of an Anthropic Messages request. */
export function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'anthropic-version': ANTHROPIC_VERSION,
    // Required for a request from a web page; the key is the user's own, kept in their browser.
    'anthropic-dangerous-direct-browser-access': 'true',
  };
  if (apiKey) headers['x-api-key'] = apiKey;
  return headers;
}
