/**
 * The two timeouts every provider request carries besides the caller's total one: a connect
 * timeout (no response headers within N s) and an idle-stream timeout (no bytes of the body for
 * N s). `post` (http.ts) applies both, so summaries, judged runs and live sessions share them.
 * Settings > Models sets them with the total timeout of a summary and of a live reply
 * (`TimeoutSeconds`; the reply's is applied by agent-common.ts).
 */
import { DEFAULT_SUMMARY_TIMEOUT_MS } from '../../core/compaction/run.ts';
import { ConnectTimeoutError, IdleTimeoutError } from './errors.ts';

/** Longest wait for a response's headers, ms (a local server may first load the model). Default 60,000. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
/** Longest silence inside a response body, ms. Default 60,000 (`--idle-timeout 60`). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Longest a live session's reply may take, all its attempts and retry waits included, ms. Default 300,000. */
export const DEFAULT_REPLY_TIMEOUT_MS = 300_000;

/** Per-request timeouts, in ms; 0 turns one off. */
export interface RequestTimeouts {
  /** No response headers within this long fails with ConnectTimeoutError. Default 60,000. */
  connectTimeoutMs?: number;
  /** No body bytes for this long fails with IdleTimeoutError. Default 60,000. */
  idleTimeoutMs?: number;
  /** A live session's whole reply (all attempts) past this long fails with ReplyTimeoutError; summaries use their own total. Default 300,000. */
  replyTimeoutMs?: number;
}

/** The timeouts as the user sets them in Settings > Models, in seconds; 0 turns connect or idle off. */
export interface TimeoutSeconds {
  /** No response headers within this long. Default 60. */
  connect: number;
  /** No bytes of a reply for this long. Default 60. */
  idle: number;
  /** A whole summary (all its attempts) within this long. Default 120. */
  total: number;
  /** A whole live-session reply (all its attempts) within this long. Default 300. */
  reply: number;
}

export const DEFAULT_TIMEOUT_SECONDS: Readonly<TimeoutSeconds> = {
  connect: DEFAULT_CONNECT_TIMEOUT_MS / 1000,
  idle: DEFAULT_IDLE_TIMEOUT_MS / 1000,
  total: DEFAULT_SUMMARY_TIMEOUT_MS / 1000,
  reply: DEFAULT_REPLY_TIMEOUT_MS / 1000,
};

/** Why a timeout field's value cannot be used (undefined when it can): a number of seconds, 0 allowed for connect and idle. */
export function timeoutProblem(which: keyof TimeoutSeconds, value: number): string | undefined {
  const least = which === 'total' || which === 'reply' ? 1 : 0;
  if (!Number.isFinite(value) || value < least || value > 3600) return `The ${which} timeout must be a number of seconds from ${least} to 3,600${least === 0 ? ' (0 turns it off)' : ''}.`;
  return undefined;
}

/** The per-request timeouts (ms) of the settings, for a provider's config. */
export function requestTimeouts(seconds: TimeoutSeconds): Required<RequestTimeouts> {
  return { connectTimeoutMs: Math.round(seconds.connect * 1000), idleTimeoutMs: Math.round(seconds.idle * 1000), replyTimeoutMs: Math.round(seconds.reply * 1000) };
}

/** The timeouts a config carries, and only those (so a config without them keeps the defaults). */
export function timeoutsOf(config: RequestTimeouts): RequestTimeouts {
  return {
    ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
    ...(config.idleTimeoutMs !== undefined ? { idleTimeoutMs: config.idleTimeoutMs } : {}),
    ...(config.replyTimeoutMs !== undefined ? { replyTimeoutMs: config.replyTimeoutMs } : {}),
  };
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
