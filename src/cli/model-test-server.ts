/**
 * Test helper (Node only): a model server on 127.0.0.1 that answers each request from what it asks,
 * in the real OpenAI chat completions or Anthropic Messages wire format (streamed, or one JSON
 * completion when `stream: false` is set), so a whole `eval` with summaries, answers and grades
 * can run against it whatever the order its requests come in. A reply may be a refusal instead
 * (status, headers, error body). Every request is recorded with its headers and body.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicStream, openAIStream } from '../llm/remote/test-server.ts';

/** What a request asks, as the handler sees it. */
export interface ModelAsk {
  api: 'openai' | 'anthropic';
  /** The system message, and the user message (the rendered prompt, fenced). */
  system: string;
  user: string;
  kind: 'summary' | 'answer' | 'grade';
  /** 1-based, over every request the server received. */
  n: number;
}

/** A refusal, or the text of the reply. */
export type ModelReply = string | { status: number; headers?: Record<string, string>; json: unknown };

export interface RecordedAsk extends ModelAsk {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

export interface ModelServer {
  url: string;
  asks: RecordedAsk[];
  close(): Promise<void>;
}

/** Which judged prompt a request carries (prompts/probe-answer.md, prompts/probe-judge.md), else a summary. */
export function kindOf(user: string): ModelAsk['kind'] {
  if (user.includes('You grade how well an agent answered')) return 'grade';
  if (user.includes('Answer one question about the session')) return 'answer';
  return 'summary';
}

export async function startModelServer(handle: (ask: ModelAsk) => ModelReply, options: { stream?: boolean } = {}): Promise<ModelServer> {
  const asks: RecordedAsk[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as { system?: string; messages: Array<{ role: string; content: string }> };
      const api = req.url?.endsWith('/v1/messages') ? 'anthropic' : 'openai';
      const system = api === 'anthropic' ? body.system ?? '' : body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      const ask: ModelAsk = { api, system, user, kind: kindOf(user), n: asks.length + 1 };
      asks.push({ ...ask, path: req.url ?? '', headers: req.headers, raw });
      const reply = handle(ask);
      if (typeof reply !== 'string') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.json));
        return;
      }
      if (api === 'openai' && options.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion', model: 'fake-model', choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }], usage: { prompt_tokens: 1000, completion_tokens: 100 } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = api === 'anthropic' ? anthropicStream(reply, { inputTokens: 1000, outputTokens: 100 }) : openAIStream(reply, { usage: { prompt_tokens: 1000, completion_tokens: 100 } });
      res.end(frames.join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asks,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
