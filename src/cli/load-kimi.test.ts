// `inspect`, `eval` and `compact` on a Kimi CLI session folder: its wire.jsonl, named by the folder,
// with the title state.json sets and each subagent's meta.json description on its thread.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile, isSessionFolder } from './load.ts';

const SAMPLE = 'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35';
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function copy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'foldlab-kimi-')), 'session-1');
  dirs.push(dir);
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

describe('a Kimi CLI session folder', () => {
  it('reads the sample folder as its wire: the folder names the session, meta.json describes the subagent thread', async () => {
    const result = await importFile(SAMPLE);
    expect(result.format).toBe('kimi');
    expect(result.entries).toHaveLength(13);
    expect(result.meta.sessionId).toBe('7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35');
    expect(result.threads).toHaveLength(1);
    expect(result.threads![0]!.meta).toMatchObject({
      sessionId: '7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35',
      title: 'Find release.py callers',
      subagent: { agentId: 'a7c3e91f', parentToolUseId: 'Agent:1', agentType: 'explore', description: 'Find release.py callers', parentSessionId: '7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35' },
    });
    expect(isSessionFolder(SAMPLE)).toBe(true);
  });

  it('takes the title the user set in state.json, and names a meta.json that is no JSON object', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ version: 1, custom_title: 'Release dry run' }));
    writeFileSync(join(dir, 'subagents', 'a7c3e91f', 'meta.json'), '[1, 2]');
    const result = await importFile(dir);
    expect(result.meta).toMatchObject({ sessionId: 'session-1', title: 'Release dry run' });
    expect(result.threads![0]!.meta.subagent).toEqual({ agentId: 'a7c3e91f', parentToolUseId: 'Agent:1', agentType: 'explore', parentSessionId: 'session-1' });
    expect(result.issues).toContainEqual({ line: 0, kind: 'malformed', message: 'subagents/a7c3e91f/meta.json: not a JSON object; skipped' });
  });
});
