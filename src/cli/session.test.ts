// cli session over a real folder with the scripted model: the turns in order, a context overflow
// answered by one compaction and one retry, the read-only tools, and the session written as pi
// JSONL v3 that Foldlab's importer reads back with the same entries.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { sse, startFakeServer } from '../llm/remote/test-server.ts';
import { runSession } from './session.ts';
import { parseSessionArgs } from './session-args.ts';

const FOLDER = resolve('e2e/fixtures/live-folder');
const SCRIPT = resolve('public/samples/live/demo-script.json');
const dir = mkdtempSync(join(tmpdir(), 'foldlab-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cli session', () => {
  it('runs the turns with the read-only tools, recovers from one overflow, and writes a session the importer reads back', async () => {
    const out = join(dir, 'session.jsonl');
    const args = parseSessionArgs([
      '--dir', FOLDER, '--script', SCRIPT, '--strategy', 'pi', '--option', 'keepRecentTokens=400', '--window', '32000', '--counter', 'chars4', '--gitignore',
      '--prompt', 'What is in this folder?', '--prompt', 'Explain @src/parser.py', '--prompt', 'Find every TODO', '--out', out,
    ]);
    const report = await runSession(args, {});
    expect(report.turns.map((turn) => turn.status)).toEqual(['done', 'done', 'done']);
    // The overflow: dropped, one compaction, one retry.
    expect(report.overflowRetries).toBe(1);
    expect(report.compactions).toHaveLength(1);
    expect(report.compactions[0]).toMatchObject({ trigger: expect.stringMatching(/overflow/) });
    expect(report.compactions[0]!.tokensAfter).toBeLessThan(report.compactions[0]!.tokensBefore);
    expect(report.toolCalls.length).toBeGreaterThanOrEqual(4);
    expect(report.toolCalls.every((call) => call.ok)).toBe(true);
    expect(new Set(report.toolCalls.map((call) => call.name))).toEqual(new Set(['ls', 'read', 'grep']));
    // Nothing the .gitignore hides was listed or read.
    expect(JSON.stringify(report.toolCalls)).not.toContain('output.log');
    expect(report.calls).toBeGreaterThanOrEqual(7);

    const imported = importText(readFileSync(out), { fileName: 'session.jsonl' });
    expect(imported.format).toBe('pi');
    const messages = imported.entries.filter((entry) => entry.kind !== 'event');
    expect(messages.length).toBe(report.entries);
    expect(imported.entries.filter((entry) => entry.marker?.source === 'pi.compaction')).toHaveLength(1);
    // The mention named the file for the model to read (the seed's reminder), its contents not pasted.
    const mention = imported.entries.find((entry) => entry.role === 'user' && JSON.stringify(entry.blocks).includes('@src/parser.py'));
    expect(JSON.stringify(mention?.blocks)).toContain('You MUST read this file with the Read tool');
    expect(JSON.stringify(mention?.blocks)).not.toContain('def parse_lines');
  });

  it('talks to an OpenAI-compatible server with the key from FOLDLAB_API_KEY, which appears nowhere else', async () => {
    const server = await startFakeServer();
    const KEY = 'sk-canary-session-42';
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3:8b' };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse(JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] }));
    server.reply(
      { events: [chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"README.md"}' } }] }), chunk({}, 'tool_calls'), sse('[DONE]')] },
      { events: [chunk({ content: 'It is tiny-parser.' }), chunk({}, 'stop'), sse('[DONE]')] },
    );
    try {
      const out = join(dir, 'server.jsonl');
      const args = parseSessionArgs(['--dir', FOLDER, '--base-url', `${server.url}/v1`, '--model', 'qwen3:8b', '--prompt', 'What is this project?', '--out', out, '--json']);
      const report = await runSession(args, { FOLDLAB_API_KEY: KEY });
      expect(report.turns).toEqual([{ prompt: 'What is this project?', status: 'done', calls: 2 }]);
      expect(report.toolCalls).toEqual([{ name: 'read', path: 'README.md', ok: true }]);
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      const second = server.requests[1]!.body as { messages: Array<{ role: string; content: unknown }>; tools: unknown[] };
      expect(second.tools.length).toBeGreaterThanOrEqual(5);
      expect(second.messages.some((m) => m.role === 'tool')).toBe(true);
      expect(JSON.stringify(report)).not.toContain(KEY);
      expect(readFileSync(out, 'utf8')).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });

  it('says on stderr what it waits for when the server rate limits: which request, how long, which attempt', async () => {
    const server = await startFakeServer();
    const KEY = 'sk-canary-session-429';
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3:8b' };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse(JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] }));
    server.reply(
      { status: 429, headers: { 'retry-after-ms': '40' }, json: { error: { message: 'Rate limit reached for requests', type: 'requests' } } },
      { events: [chunk({ content: 'Hello.' }), chunk({}, 'stop'), sse('[DONE]')] },
    );
    try {
      const lines: string[] = [];
      const args = parseSessionArgs(['--dir', FOLDER, '--base-url', `${server.url}/v1`, '--model', 'qwen3:8b', '--prompt', 'Hi', '--out', join(dir, 'limited.jsonl')]);
      const report = await runSession(args, { FOLDLAB_API_KEY: KEY }, undefined, (line) => lines.push(line));
      expect(report.turns[0]!.status).toBe('done');
      expect(lines).toEqual([expect.stringMatching(/^Waiting 40 ms \(as the server asked\) before attempt 2 of 4 of request 1 \(a reply\) to .+ · qwen3:8b: rate limited \(HTTP 429\)\.$/)]);
      expect(lines.join('\n')).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });

  it('--idle-timeout ends a reply that stalls mid-stream: the turn fails naming the idle timeout, and the file keeps the user\'s message', async () => {
    const server = await startFakeServer();
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3:8b' };
    server.reply({ events: [sse(JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'It is' }, finish_reason: null }] }))], hang: true });
    try {
      const out = join(dir, 'idle.jsonl');
      const args = parseSessionArgs(['--dir', FOLDER, '--base-url', `${server.url}/v1`, '--model', 'qwen3:8b', '--prompt', 'Hi', '--out', out, '--idle-timeout', '0.2']);
      const report = await runSession(args, {}, undefined, () => undefined);
      expect(report.turns[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Idle timeout: .+ sent nothing for 0\.2 s after \d+ bytes/) });
      const imported = importText(readFileSync(out), { fileName: 'idle.jsonl' });
      expect(imported.entries.filter((entry) => entry.kind !== 'event').map((entry) => entry.role)).toEqual(['user']);
    } finally {
      await server.close();
    }
  });

  it('--reply-timeout ends a reply that keeps trickling past it: the turn fails naming the reply timeout, and the file keeps the user\'s message', async () => {
    const server = await startFakeServer();
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3:8b' };
    const frame = (text: string) => sse(JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }));
    server.reply({ events: Array.from({ length: 60 }, (_, i) => frame(`w${i} `)), delayMs: 40 });
    try {
      const out = join(dir, 'reply.jsonl');
      const args = parseSessionArgs(['--dir', FOLDER, '--base-url', `${server.url}/v1`, '--model', 'qwen3:8b', '--prompt', 'Hi', '--out', out, '--reply-timeout', '0.3']);
      const report = await runSession(args, {}, undefined, () => undefined);
      expect(report.turns[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Reply timeout: .+ did not finish its reply within 0\.3 s/) });
      const imported = importText(readFileSync(out), { fileName: 'reply.jsonl' });
      expect(imported.entries.filter((entry) => entry.kind !== 'event').map((entry) => entry.role)).toEqual(['user']);
    } finally {
      await server.close();
    }
  });

  it('--connect-timeout ends a request whose server never answers, naming the connect timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
      const args = parseSessionArgs(['--dir', FOLDER, '--base-url', url, '--model', 'qwen3:8b', '--prompt', 'Hi', '--out', join(dir, 'connect.jsonl'), '--connect-timeout', '0.2']);
      expect(args.connectTimeoutMs).toBe(200);
      const report = await runSession(args, {}, undefined, () => undefined);
      expect(report.turns[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Connect timeout: .+ sent no response within 0\.2 s of the request/) });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a refused connection is tried again with backoff, 3 times at most, each wait printed with its code', async () => {
    const closed = await startFakeServer();
    await closed.close();
    const lines: string[] = [];
    const args = parseSessionArgs(['--dir', FOLDER, '--base-url', `${closed.url}/v1`, '--model', 'qwen3:8b', '--prompt', 'Hi', '--out', join(dir, 'refused.jsonl')]);
    const report = await runSession(args, {}, undefined, (line) => lines.push(line));
    expect(report.turns[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/\(ECONNREFUSED\).* Gave up after 4 attempts\.$/) });
    expect(lines).toHaveLength(3);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^Waiting [\\d.]+ m?s \\(backoff\\) before attempt ${i + 2} of 4 of request 1 \\(a reply\\) to .+ · qwen3:8b: NetworkError \\(ECONNREFUSED\\)\\.$`)));
  });

  it('says which step of a bad script is wrong, and writes nothing', async () => {
    const script = join(dir, 'bad.json');
    writeFileSync(script, JSON.stringify([{ toolCalls: [{ input: {} }] }]));
    const out = join(dir, 'never.jsonl');
    const args = parseSessionArgs(['--dir', FOLDER, '--script', script, '--prompt', 'hi', '--out', out]);
    await expect(runSession(args, {})).rejects.toThrow(/step 1: toolCalls\[0\]\.name/);
    expect(() => readFileSync(out)).toThrow();
  });
});
