// `inspect`, `eval` and `compact` on a Kimi Code session folder: the main agent's wire as the
// session, titled by state.json, each other agent's wire as a subagent thread linked to its Agent call.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile, isSessionFolder } from './load.ts';

const SESSION = 'session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b';
const SAMPLE = `public/samples/kimi-code/${SESSION}`;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function copy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'foldlab-kimi-code-')), 'session_x');
  dirs.push(dir);
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

describe('a Kimi Code session folder', () => {
  it('reads the sample folder: the main agent as the session titled by state.json, the explore subagent as its thread on the Agent call', async () => {
    const result = await importFile(SAMPLE);
    expect(result.format).toBe('kimi-code');
    expect(result.entries).toHaveLength(36);
    expect(result.meta).toMatchObject({ sessionId: SESSION, title: 'The parseDuration test fails on "1h30m". Find out why and fix it.', cwd: '/home/dev/timekit', createdAt: 1790321400000, subagentCalls: { 'agent-0': 'Agent_4' } });
    expect(result.threads).toHaveLength(1);
    const thread = result.threads![0]!;
    expect(thread.entries).toHaveLength(7);
    expect(thread.meta).toMatchObject({
      sessionId: SESSION,
      title: 'Find parseDuration callers',
      subagent: { agentId: 'agent-0', agentType: 'explore', description: 'Find parseDuration callers', parentToolUseId: 'Agent_4', parentSessionId: SESSION },
    });
    expect(result.issues).toEqual([]);
    expect(isSessionFolder(SAMPLE)).toBe(true);
  });

  it('names the session by its folder when state.json is no JSON object, and leaves out a subagent whose wire holds nothing', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'state.json'), '["not", "state"]');
    writeFileSync(join(dir, 'agents', 'agent-0', 'wire.jsonl'), '{"type":"metadata","protocol_version":"1.5"}\n');
    const result = await importFile(dir);
    expect(result.meta).toMatchObject({ sessionId: 'session_x' });
    expect(result.meta.title).toBeUndefined();
    expect(result.threads).toBeUndefined();
    expect(result.issues.map((issue) => issue.message)).toEqual([
      'state.json: not a JSON object; the session is named by its folder',
      expect.stringMatching(/^agents\/agent-0\/wire\.jsonl: ".*wire\.jsonl" holds no conversation entries for Kimi Code session .*; that subagent was left out$/),
    ]);
  });

  it('refuses a session folder whose agents folder is missing, naming it', async () => {
    const dir = copy();
    rmSync(join(dir, 'agents'), { recursive: true });
    expect(isSessionFolder(dir)).toBe(true);
    await expect(importFile(dir)).rejects.toThrow(`"${SESSION}" is a Kimi Code session folder without its main agent's agents/main/wire.jsonl (its agents folder holds no wire.jsonl); pick the whole session folder.`);
  });
});
