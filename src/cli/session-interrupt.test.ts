// `cli session` as a user runs it, stopped with Ctrl-C while the server stalls mid-reply: the
// process ends and the session file holds every entry completed before, as a pi session that
// Foldlab's importer reads back.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importText } from '../core/import/run.ts';
import { sse, startFakeServer } from '../llm/remote/test-server.ts';

const FOLDER = resolve('e2e/fixtures/live-folder');
const dir = mkdtempSync(join(tmpdir(), 'foldlab-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3:8b' };
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse(JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] }));

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Starts `cli session` against a server whose second reply stalls mid-stream; resolves once that reply has started. */
async function stalledSession(out: string) {
  const server = await startFakeServer({ maxOpenMs: 60_000 });
  server.reply(
    // The first call reads a file; the second starts its reply, then goes quiet.
    { events: [chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"README.md"}' } }] }), chunk({}, 'tool_calls'), sse('[DONE]')] },
    { events: [chunk({ content: 'It is a tiny' })], hang: true },
  );
  const child = spawn(process.execPath, [
    '--import', 'tsx', 'src/cli/main.ts', 'session', '--dir', FOLDER, '--base-url', `${server.url}/v1`, '--model', 'qwen3:8b',
    '--prompt', 'What is this project?', '--prompt', 'never sent', '--out', out,
  ], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FOLDLAB_API_KEY: '' } });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (data: Buffer) => void (output.stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => void (output.stderr += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => server.requests.length === 2 || child.exitCode !== null);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await server.close();
  };
  return { child, output, exited, close };
}

/** The file holds the user's message, the tool call and its result, and nothing of the stalled reply. */
function expectCompleteEntries(out: string): void {
  const text = readFileSync(out, 'utf8');
  for (const line of text.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  const imported = importText(Buffer.from(text), { fileName: 'stopped.jsonl' });
  expect(imported.format).toBe('pi');
  expect(imported.entries.filter((entry) => entry.kind !== 'event').map((entry) => entry.role)).toEqual(['user', 'assistant', 'tool']);
  expect(text).not.toContain('It is a tiny');
}

describe('cli session stopped mid-stream', () => {
  it('Ctrl-C stops the turn and writes the session up to the last complete entry', async () => {
    const out = join(dir, 'stopped.jsonl');
    const run = await stalledSession(out);
    try {
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(1);
      expect(run.output.stderr).toContain('Stopping: writing the session');
      expect(run.output.stdout).toMatch(/turn 1: stopped/);
      expect(run.output.stdout).toMatch(/wrote 3 entries to/);
      expectCompleteEntries(out);
    } finally {
      await run.close();
    }
  }, 60_000);

  it('a process killed outright still leaves every completed entry in the file', async () => {
    const out = join(dir, 'killed.jsonl');
    const run = await stalledSession(out);
    try {
      run.child.kill('SIGKILL');
      await run.exited;
      expectCompleteEntries(out);
    } finally {
      await run.close();
    }
  }, 60_000);
});
