import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../cli/load.ts';
import { parseCopilotWorkspace, readFlatYaml, withCopilotWorkspace } from './copilot-workspace.ts';
import { importText } from './run.ts';

const DIR = 'public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e';
/** The real workspace.yaml of the sample session (see public/samples/NOTICE.md). */
const WORKSPACE = readFileSync(`${DIR}/workspace.yaml`, 'utf8');

describe('GitHub Copilot CLI workspace.yaml', () => {
  it('reads the real file: id, cwd, branch, the name as the title, the creation time', () => {
    expect(parseCopilotWorkspace(WORKSPACE, 'workspace.yaml')).toEqual({
      id: '049410b4-c1df-44ee-87a5-caa1c349091e', cwd: '/work', branch: 'master',
      title: 'In src/orders.py make average_item_price return 0 when the cart has no items.', createdAt: '2026-08-05T20:40:13.482Z',
    });
  });

  it('reads quoted values, passes over comments and nested values, takes the older summary key', () => {
    const values = readFlatYaml('# a comment\nname: \'It\'\'s fixed\'\ncwd: "/w/a b"\ntags:\n  - one\n  - two\nbranch: main # current\n', 'w.yaml');
    expect(Object.fromEntries(values)).toEqual({ name: "It's fixed", cwd: '/w/a b', tags: '', branch: 'main' });
    expect(parseCopilotWorkspace('summary: Fix the empty cart\n', 'w.yaml').title).toBe('Fix the empty cart');
    expect(parseCopilotWorkspace('summary: |\n  a block\n', 'w.yaml').title).toBeUndefined();
  });

  it('refuses a line that is not key: value, or a quote that does not close, by file and line', () => {
    expect(() => readFlatYaml('id: a\njust words\n', 'workspace.yaml')).toThrow('"workspace.yaml" line 2: expected a "key: value" line, got "just words".');
    expect(() => readFlatYaml('name: "open\n', 'workspace.yaml')).toThrow('"workspace.yaml" line 1: a double-quoted value that does not end where it should');
    expect(() => readFlatYaml("name: 'open\n", 'workspace.yaml')).toThrow('"workspace.yaml" line 1: a single-quoted value that does not end where it should');
  });

  it('titles the session after a /rename, fills the id and cwd only where the log had none', () => {
    const session = importText(readFileSync(`${DIR}/events.jsonl`, 'utf8'), { fileName: 'events.jsonl' });
    const renamed = withCopilotWorkspace(session, parseCopilotWorkspace(WORKSPACE.replace(/^name: .*$/m, 'name: Empty carts average to 0').replace('user_named: false', 'user_named: true'), 'workspace.yaml'));
    expect(renamed.meta.title).toBe('Empty carts average to 0');
    expect(renamed.meta.sessionId).toBe(session.meta.sessionId);
    expect(withCopilotWorkspace({ ...session, meta: {} }, { id: 'x', cwd: '/c' }).meta).toEqual({ sessionId: 'x', cwd: '/c' });
  });

  it("fills the branch and the creation time where the log's session.start had none, and keeps the log's where it had them", () => {
    const workspace = parseCopilotWorkspace(WORKSPACE.replace('branch: master', 'branch: fix-empty-cart'), 'workspace.yaml');
    expect(withCopilotWorkspace({ format: 'copilot-cli', entries: [], issues: [], meta: {}, lines: 0, ignoredLines: 0 }, workspace).meta).toMatchObject({
      gitBranch: 'fix-empty-cart', createdAt: Date.UTC(2026, 7, 5, 20, 40, 13, 482),
    });
    const session = importText(readFileSync(`${DIR}/events.jsonl`, 'utf8'), { fileName: 'events.jsonl' });
    expect(withCopilotWorkspace(session, workspace).meta).toMatchObject({ gitBranch: 'master', createdAt: Date.UTC(2026, 7, 5, 20, 40, 13, 471) });
    expect(withCopilotWorkspace(session, { createdAt: 'not a time' }).meta.createdAt).toBe(session.meta.createdAt);
  });

  it('is read beside events.jsonl by the command line; a broken one is refused by name and line', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'copilot-ws-')), 'session');
    cpSync(DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'workspace.yaml'), WORKSPACE.replace(/^name: .*$/m, 'name: Empty carts average to 0'));
    expect((await importFile(join(dir, 'events.jsonl'))).meta.title).toBe('Empty carts average to 0');
    writeFileSync(join(dir, 'workspace.yaml'), 'name: "x\n');
    await expect(importFile(join(dir, 'events.jsonl'))).rejects.toThrow('"workspace.yaml" line 1');
  });
});
