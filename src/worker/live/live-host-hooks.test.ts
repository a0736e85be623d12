/**
 * The user's hook module in a live session as the page starts it (P8): the module's source goes
 * with the session's start, each call through a hook worker (here the module imported in-process
 * from a data: URL, as hook.worker.ts imports its Blob URL). The demo's overflow compaction takes
 * the summary before-compact writes; a branch move the one before-fork writes; a module that does
 * not load stops the start with the reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataUrlHookWorker } from '../../core/hooks/test-hook-worker.ts';
import type { AgentEvent } from '../../core/agent/types.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { liveFolderSnapshot } from './test-fixtures.ts';
import { LiveHost } from './live-host.ts';

const SCRIPT = JSON.parse(readFileSync('public/samples/live/demo-script.json', 'utf8')) as unknown;
const config: LiveSessionConfig = { model: { kind: 'scripted', name: 'demo-script.json', script: SCRIPT }, strategy: 'pi', options: { keepRecentTokens: '400' }, contextWindow: 200_000, counter: 'chars4', gitignore: true };

const HOOKS = [
  'export function beforeCompact(e) { return { summary: `From the hook: ${e.entries.length} entries` }; }',
  'export function beforeFork(e) { return { summary: `Hook branch summary of ${e.entriesLeftOut} entries` }; }',
].join('\n');

describe('the live host with the user\'s hooks', () => {
  it('runs before-compact on the overflow compaction and before-fork on a branch move', async () => {
    const host = new LiveHost(dataUrlHookWorker);
    const events: AgentEvent[] = [];
    await host.start({ id: 's', folder: liveFolderSnapshot(), config, model: { kind: 'scripted', script: SCRIPT }, journal: [], hookSource: HOOKS }, (event) => events.push(event));
    for (const text of ['What is in this folder?', 'Explain @src/parser.py', 'Find every TODO']) expect((await host.send('s', text)).status).toBe('done');
    const compaction = events.find((e): e is Extract<AgentEvent, { type: 'compaction' }> => e.type === 'compaction');
    const summaries = Object.values(compaction!.summaries);
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) expect(summary).toMatch(/^From the hook: \d+ entries$/);
    const first = events.find((e): e is Extract<AgentEvent, { type: 'entry' }> => e.type === 'entry' && e.entry.role === 'user')!;
    expect((await host.editAndResend('s', first.entry.id, 'What is in the notes folder?')).status).toBe('done');
    const moved = events.find((e): e is Extract<AgentEvent, { type: 'branch-summary' }> => e.type === 'branch-summary');
    expect(JSON.stringify(moved!.entry.blocks)).toMatch(/Hook branch summary of \d+ entries/);
  });

  it('does not start with a hook module that does not load, and says why', async () => {
    const host = new LiveHost(dataUrlHookWorker);
    await expect(host.start({ id: 's', folder: liveFolderSnapshot(), config, model: { kind: 'scripted', script: SCRIPT }, journal: [], hookSource: 'export const x = ;' }, () => undefined))
      .rejects.toThrow(/^The hook module did not load: /);
    expect(host.size).toBe(0);
  });
});
