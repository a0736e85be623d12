/**
 * The Anthropic Messages event stream as the summarizer and the agent model read it: each event's
 * parsed data and type, up to the `message_stop` that ends a whole reply. An `error` event becomes
 * the named provider error; a stream that ends before `message_stop` is a StreamError (a cut
 * connection, not a short reply).
 */
import { StreamError, type ProviderRef } from './errors.ts';
import { errorFromResponse, parseEventData, sseEvents, statusOfStreamError } from './http.ts';

/** Events of `response` before its `message_stop`; `received` says how many characters of text have arrived (for errors). */
export async function* anthropicEvents(
  response: Response, provider: ProviderRef, signal: AbortSignal, received: () => number, apiKey: string | undefined,
): AsyncGenerator<{ type: string | undefined; data: unknown }> {
  for await (const event of sseEvents(response, provider, signal, received)) {
    const data = parseEventData(event, provider, received());
    const type = (data as { type?: string }).type ?? event.event;
    if (type === 'message_stop') return;
    if (type === 'error') throw errorFromResponse(provider, statusOfStreamError(data), event.data, undefined, apiKey);
    yield { type, data };
  }
  throw new StreamError(provider, 'the stream ended without its final message_stop', received());
}
