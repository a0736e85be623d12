/**
 * The bundled live demo as a user of the deployed site runs it: the demo folder shipped in
 * public/ (the same files as the e2e fixture), the bundled script, every built-in strategy at its
 * defaults through the worker host the page drives. Each runs the demo to its end: four turns
 * (the third overflows once and is recovered), an edit resent as a new branch, a move back.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/agent/types.ts';
import { STRATEGY_IDS } from '../core/strategies/index.ts';
import type { LiveSessionConfig } from '../db/live-session-row.ts';
import { demoFolderFrom } from './live-folder.ts';
import { LiveHost } from '../worker/live/live-host.ts';

const SCRIPT = JSON.parse(readFileSync('public/samples/live/demo-script.json', 'utf8')) as unknown;
const SNAPSHOT = JSON.parse(readFileSync('public/samples/live/demo-folder.json', 'utf8')) as { name: string; files: Record<string, string> };
const FIXTURE = 'e2e/fixtures/live-folder';

function fixtureFiles(dir = FIXTURE, out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) fixtureFiles(full, out);
    else out[relative(FIXTURE, full)] = readFileSync(full, 'utf8');
  }
  return out;
}

describe('the demo folder shipped with the site', () => {
  it('holds the files the demo script was written for, as the e2e fixture has them', () => {
    expect(SNAPSHOT.name).toBe('tiny-parser');
    expect(SNAPSHOT.files).toEqual(fixtureFiles());
  });

  it('is read as a snapshot named after it, every file under its path', async () => {
    const picked = demoFolderFrom(SNAPSHOT);
    expect(picked.folder.name).toBe('tiny-parser');
    expect(picked.folder.snapshot).toBe(true);
    expect(picked.paths).toContain('tiny-parser/src/utils/format.py');
    expect((await picked.folder.list('src')).map((e) => e.name).sort()).toEqual(['parser.py', 'utils']);
    expect(new TextDecoder().decode(await picked.folder.read('notes/todo.txt'))).toBe(SNAPSHOT.files['notes/todo.txt']);
  });

  it('refuses a document of another shape, saying what was expected', () => {
    expect(() => demoFolderFrom({ files: {} })).toThrow('samples/live/demo-folder.json: expected {"name": "<folder>", "files": {"<path>": "<text>", …}}.');
    expect(() => demoFolderFrom({ name: 'x', files: { 'a.txt': 3 } })).toThrow('the file "a.txt" is not text');
  });
});

describe('the bundled demo with every built-in strategy at its defaults', () => {
  it.each(STRATEGY_IDS.filter((id) => id !== 'custom'))('%s runs it to its end', async (strategy) => {
    const picked = demoFolderFrom(SNAPSHOT);
    const files = picked.files!.map((file, i) => ({ path: picked.paths![i]!, file }));
    const config: LiveSessionConfig = { model: { kind: 'scripted', name: 'demo-script.json', script: SCRIPT }, strategy, options: {}, contextWindow: 200_000, counter: 'o200k', gitignore: true };
    const host = new LiveHost();
    const events: AgentEvent[] = [];
    await host.start({ id: 's', folder: { kind: 'files', files }, config, model: { kind: 'scripted', script: SCRIPT }, journal: [] }, (event) => events.push(event));
    for (const text of ['What is in this folder?', 'Explain @src/parser.py', 'Find every TODO', 'Summarize what we did']) {
      expect(await host.send('s', text), text).toMatchObject({ status: 'done' });
    }
    const overflow = events.filter((e) => e.type === 'compaction' && e.trigger === 'overflow');
    expect(overflow).toHaveLength(1);
    const answers = events.flatMap((e) => (e.type === 'entry' && e.entry.role === 'assistant' ? [JSON.stringify(e.entry.blocks)] : []));
    expect(answers.some((text) => text.includes('src/utils/format.py:6'))).toBe(true);

    const firstUser = events.find((e) => e.type === 'entry' && e.entry.role === 'user') as Extract<AgentEvent, { type: 'entry' }>;
    const mainLeaf = host.leaf('s')!;
    expect(await host.editAndResend('s', firstUser.entry.id, 'What is in the notes folder?')).toMatchObject({ status: 'done' });
    expect(events.some((e) => e.type === 'entry' && JSON.stringify(e.entry.blocks).includes('todo.txt, with three items'))).toBe(true);
    await host.switchBranch('s', mainLeaf);
    expect(events.filter((e) => e.type === 'branch-summary')).toHaveLength(2);
    expect(events.some((e) => e.type === 'note' && /recovery failed/.test(e.text))).toBe(false);
    host.close('s');
  }, 60_000);
});
