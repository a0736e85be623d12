/**
 * The two timeouts every provider request carries besides the caller's total one: a connect
 * timeout (no response headers within N s) and an idle-stream timeout (no bytes of the body for
 * N s). `post` (http.ts) applies both, so summaries, judged runs and live sessions share them.
 */
import { ConnectTimeoutError, IdleTimeoutError } from './errors.ts';

/** Longest wait for a response's headers, ms (a local server may first load the model). Default 60,000. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
/** Longest silence inside a response body, ms. Default 60,000 (`--idle-timeout 60`). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Per-request timeouts, in ms; 0 turns one off. */
export interface RequestTimeouts {
  /** No response headers within this long fails with ConnectTimeoutError. Default 60,000. */
  connectTimeoutMs?: number;
  /** No body bytes for this long fails with IdleTimeoutError. Default 60,000. */
  idleTimeoutMs?: number;
}

/**
 * A controller for one request: aborted by the caller's signal (with its reason) or by the
 * connect timer (with a ConnectTimeoutError) until `connected()` is called.
 */
export function requestController(signal: AbortSignal, connectTimeoutMs: number, label: string): { signal: AbortSignal; connected: () => void; timedOut: () => ConnectTimeoutError | undefined; abort: (reason: Error) => void; release: () => void } {
  const inner = new AbortController();
  const forward = () => inner.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  let fired: ConnectTimeoutError | undefined;
  const timer = connectTimeoutMs > 0 ? setTimeout(() => {
    fired = new ConnectTimeoutError(connectTimeoutMs, label);
    inner.abort(fired);
  }, connectTimeoutMs) : undefined;
  return {
    signal: inner.signal,
    connected: () => clearTimeout(timer),
    timedOut: () => fired,
    abort: (reason) => inner.abort(reason),
    release: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    },
  };
}

/**
 * The same response with a body that fails with IdleTimeoutError when no bytes arrive for
 * `idleTimeoutMs` (then `onIdle` closes the connection). `onEnd` runs once the body ends, fails or
 * is cancelled.
 */
export function withIdleTimeout(response: Response, idleTimeoutMs: number, label: string, onIdle: (error: IdleTimeoutError) => void, onEnd: () => void): Response {
  if (!response.body || idleTimeoutMs <= 0) return response;
  const reader = response.body.getReader();
  let bytes = 0;
  let ended = false;
  const end = () => {
    if (!ended) onEnd();
    ended = true;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new IdleTimeoutError(idleTimeoutMs, label, bytes);
          onIdle(error);
          reject(error);
        }, idleTimeoutMs);
      });
      try {
        const chunk = await Promise.race([reader.read(), silent]);
        if (chunk.done) {
          end();
          controller.close();
          return;
        }
        bytes += chunk.value.byteLength;
        controller.enqueue(chunk.value);
      } catch (error) {
        end();
        void reader.cancel().catch(() => undefined);
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
