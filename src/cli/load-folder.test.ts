// `inspect`, `eval` and `compact` on a folder: an opencode storage folder reads as its session.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findEvalInputs } from './eval-files.ts';
import { importFile } from './load.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function storage(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-opencode-'));
  made.push(dir);
  for (const [path, value] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

const session = (id: string, extra: Record<string, unknown> = {}) => ({
  [`session/p/${id}.json`]: { id, projectID: 'p', directory: '/d', title: `Title ${id}`, time: { created: 1 }, ...extra },
  [`message/${id}/msg_${id}.json`]: { id: `msg_${id}`, sessionID: id, role: 'user', time: { created: 2 } },
  [`part/msg_${id}/prt_${id}.json`]: { id: `prt_${id}`, sessionID: id, messageID: `msg_${id}`, type: 'text', text: `hello from ${id}` },
});

describe('a folder on the command line', () => {
  it('reads the opencode storage sample as its one session', async () => {
    const result = await importFile('public/samples/opencode/storage');
    expect(result).toMatchObject({ format: 'opencode', meta: { sessionId: 's_stage0_large', title: 'OpenCode Large' } });
    expect(result.entries).toHaveLength(6);
  });

  it('reads a Cline task folder as its task, with the usage of each request', async () => {
    const result = await importFile('public/samples/cline/1764201600000');
    expect(result).toMatchObject({ format: 'cline', meta: { sessionId: '1764201600000' } });
    expect(result.entries.filter((entry) => entry.usage)).toHaveLength(3);
    expect(findEvalInputs(['public/samples/cline']).files.map((file) => file.split('/').slice(-2).join('/'))).toEqual(['samples/cline']);
  });

  it('reads a GitHub Copilot CLI session folder as its events.jsonl, titled by its workspace.yaml', async () => {
    // Counted by hand from the sample's 15 events: the system prompt, the request and what the CLI
    // wrapped around it, 2 responses, the 2 failed view calls' results.
    const result = await importFile('public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e');
    expect(result).toMatchObject({ format: 'copilot-cli', meta: { sessionId: '049410b4-c1df-44ee-87a5-caa1c349091e', title: 'In src/orders.py make average_item_price return 0 when the cart has no items.' } });
    expect(result.entries.map((entry) => entry.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'tool', 'assistant']);
  });

  it('is one input of eval, not a folder of transcripts', () => {
    const inputs = findEvalInputs(['public/samples']);
    // The storage folder is one session; the opencode message list beside it and the other samples stay files.
    expect(inputs.files.filter((file) => file.includes('/opencode')).map((file) => file.split('/').slice(-2).join('/'))).toEqual(['opencode/sandbox-agent-messages.json', 'opencode/storage']);
    expect(inputs.files.some((file) => file.endsWith('openhands/basic_gui_mode.json'))).toBe(true);
  });

  it('keeps a subagent session as a thread of its parent and names an unreadable file', async () => {
    const dir = storage({ ...session('ses_a'), ...session('ses_b', { parentID: 'ses_a' }), 'part/msg_ses_a/zz.json': '{"id":' });
    const result = await importFile(dir);
    expect(result.meta.sessionId).toBe('ses_a');
    expect(result.threads?.map((thread) => thread.meta.subagent)).toEqual([{ parentSessionId: 'ses_a', agentId: 'ses_b' }]);
    expect(result.issues.map((issue) => issue.message)).toEqual([expect.stringMatching(/^part\/msg_ses_a\/zz\.json: not valid JSON .*; skipped$/)]);
  });

  it('refuses a folder of several sessions, naming them, and a folder that is no opencode storage', async () => {
    const dir = storage({ ...session('ses_a'), ...session('ses_b') });
    await expect(importFile(dir)).rejects.toThrow(/holds 2 opencode sessions: ses_a \(Title ses_a\), ses_b \(Title ses_b\); .*opencode export <session>/);
    const other = storage({ 'notes/a.json': { hello: 1 } });
    await expect(importFile(other)).rejects.toThrow(/is a folder, but not an opencode storage folder .*, a Kimi CLI session folder \(wire\.jsonl\) or a GitHub Copilot CLI session folder \(events\.jsonl\)/);
  });
});
