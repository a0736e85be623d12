/**
 * Test helper (Node only): a fake provider on 127.0.0.1 that speaks the real wire formats of the
 * OpenAI chat completions and Anthropic Messages streams, answering each request with the next
 * scripted reply (status, headers, error body, events, delays, a cut socket, a hang).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

/** One scripted answer. With `events`, the reply is an SSE stream; otherwise `json` or `text` is the body. */
export interface ScriptedReply {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (error replies, or a non-streamed completion). */
  json?: unknown;
  /** A raw body. */
  text?: string;
  /** SSE frames, each written as given (see openAIStream / anthropicStream). */
  events?: string[];
  /** Wait before each frame (ms). Default 0. */
  delayMs?: number;
  /** After the frames, destroy the socket instead of ending the response. */
  cut?: boolean;
  /** After the frames, keep the response open (until the client leaves or `maxOpenMs`). */
  hang?: boolean;
  /** Send nothing at all, not even headers (until the client leaves or `maxOpenMs`). */
  silent?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
  raw: string;
}

export interface FakeServerOptions {
  /** Requests served before the server answers 503 to everything. Default 200. */
  maxRequests?: number;
  /** Longest time a response stays open (ms). Default 10,000. */
  maxOpenMs?: number;
  /** Largest request body read (bytes); larger gets 413. Default 4 MB. */
  maxBodyBytes?: number;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Queues replies, used one per request in order; with none queued the server answers 500. */
  reply(...replies: ScriptedReply[]): void;
  /** Replies still queued. */
  pending(): number;
  /** Forgets recorded requests and queued replies. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const maxRequests = options.maxRequests ?? 200;
  const maxOpenMs = options.maxOpenMs ?? 10_000;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const requests: RecordedRequest[] = [];
  let queue: ScriptedReply[] = [];
  let served = 0;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (++served > maxRequests) return sendJson(res, 503, { error: { message: 'fake server: request limit reached' } });
      if (tooLarge) return sendJson(res, 413, { error: { message: 'fake server: body too large' } });
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw });
      const reply = queue.shift();
      if (!reply) return sendJson(res, 500, { error: { message: 'fake server: no scripted reply for this request', type: 'server_error' } });
      play(res, reply);
    });
  });

  function play(res: ServerResponse, reply: ScriptedReply): void {
    const status = reply.status ?? 200;
    const deadline = later(maxOpenMs, () => res.destroy());
    res.on('close', () => clearTimeout(deadline));
    if (reply.silent) return;
    if (!reply.events) {
      const body = reply.json !== undefined ? JSON.stringify(reply.json) : reply.text ?? '';
      res.writeHead(status, { 'content-type': reply.json !== undefined ? 'application/json' : 'text/plain', ...reply.headers });
      res.end(body);
      return;
    }
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
    res.flushHeaders();
    const frames = [...reply.events];
    const next = () => {
      if (res.destroyed) return;
      const frame = frames.shift();
      if (frame === undefined) {
        if (reply.cut) res.socket?.destroy();
        else if (!reply.hang) res.end();
        return;
      }
      // The callback runs once the frame is flushed, so a cut after it still delivers it.
      res.write(frame, () => (reply.delayMs ? later(reply.delayMs, next) : setImmediate(next)));
    };
    if (reply.delayMs) later(reply.delayMs, next);
    else next();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    reset: () => {
      requests.length = 0;
      queue = [];
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: ServerResponse, status: number, json: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(json));
}

/** One SSE frame. */
export function sse(data: string, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${data}\n\n`;
}

/** The frames of an OpenAI chat.completion.chunk stream with `stream_options.include_usage`. */
export function openAIStream(pieces: string | readonly string[], options: { model?: string; usage?: { prompt_tokens: number; completion_tokens: number }; done?: boolean; finishReason?: string } = {}): string[] {
  const model = options.model ?? 'gpt-4o-mini-2024-07-18';
  const base = { id: 'chatcmpl-fake123', object: 'chat.completion.chunk', created: 1_700_000_000, model, system_fingerprint: 'fp_fake', usage: null };
  const choice = (delta: Record<string, unknown>, finish: string | null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });
  const frames = [sse(JSON.stringify({ ...base, choices: [choice({ role: 'assistant', content: '', refusal: null }, null)] }))];
  for (const piece of typeof pieces === 'string' ? [pieces] : pieces) frames.push(sse(JSON.stringify({ ...base, choices: [choice({ content: piece }, null)] })));
  frames.push(sse(JSON.stringify({ ...base, choices: [choice({}, options.finishReason ?? 'stop')] })));
  const usage = options.usage ?? { prompt_tokens: 1200, completion_tokens: 34 };
  frames.push(sse(JSON.stringify({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } })));
  if (options.done !== false) frames.push(sse('[DONE]'));
  return frames;
}

/** The frames of an Anthropic Messages stream. */
export function anthropicStream(pieces: string | readonly string[], options: { model?: string; inputTokens?: number; outputTokens?: number; stop?: boolean; stopReason?: string } = {}): string[] {
  const model = options.model ?? 'claude-sonnet-4-5-20250929';
  const frame = (type: string, data: Record<string, unknown>) => sse(JSON.stringify({ type, ...data }), type);
  const frames = [
    frame('message_start', { message: { id: 'msg_fake123', type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null, usage: { input_tokens: options.inputTokens ?? 2100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } } }),
    frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    frame('ping', {}),
  ];
  for (const piece of typeof pieces === 'string' ? [pieces] : pieces) frames.push(frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }));
  frames.push(frame('content_block_stop', { index: 0 }));
  frames.push(frame('message_delta', { delta: { stop_reason: options.stopReason ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: options.outputTokens ?? 42 } }));
  if (options.stop !== false) frames.push(frame('message_stop', {}));
  return frames;
}

/** An Anthropic `error` event, as sent inside a 200 stream. */
export function anthropicErrorEvent(type: string, message: string): string {
  return sse(JSON.stringify({ type: 'error', error: { type, message } }), 'error');
}

/** An OpenAI-style error body. */
export function openAIErrorBody(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

/** An Anthropic-style error body. */
export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message }, request_id: 'req_fake123' };
}

/** Every way an error could show `secret`: message, stack, own fields, JSON, and a deep inspect (cause included). */
export function renderedError(error: unknown): string {
  const parts = [String(error), JSON.stringify(error), inspect(error, { depth: 8, showHidden: true })];
  if (error instanceof Error) {
    parts.push(error.message, error.stack ?? '', JSON.stringify({ ...error, name: error.name, message: error.message, cause: String(error.cause) }));
  }
  return parts.join('\n');
}

/** A recorded body with the per-request random tag numbers (src/llm/fence.ts) taken out, for comparing with the prompt as written. */
export function unfenced<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/<(\/?[a-z][a-z_-]*?)-\d{24}>/g, '<$1>')) as T;
}
