/**
 * The live sessions' worker host in Node, as the page drives it: the bundled demo script over the
 * folder fixture sent as a snapshot's files, the events mapped to the Live tab's state
 * (applyLiveEvent) and the loop's compaction mapped to a stored run (liveRun).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/types.ts';
import type { LiveSessionConfig } from '../../db/live-session-row.ts';
import { applyLiveEvent, liveRun } from '../../store/live-events.ts';
import { IDLE_RUNTIME, type LiveRuntime } from '../../store/live-store.ts';
import { LiveHost, type LiveFolderSource } from './live-host.ts';

const ROOT = 'e2e/fixtures/live-folder';
const SCRIPT = JSON.parse(readFileSync('public/samples/live/demo-script.json', 'utf8')) as unknown;
const config: LiveSessionConfig = { model: { kind: 'scripted', name: 'demo-script.json', script: SCRIPT }, strategy: 'pi', options: { keepRecentTokens: '400' }, contextWindow: 200_000, counter: 'chars4', gitignore: true };

/** The fixture as a directory `<input>` gives it: every file with its path under the folder's name. */
function snapshot(dir = ROOT): LiveFolderSource {
  const files: Array<{ path: string; file: File }> = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push({ path: `live-folder/${relative(ROOT, full)}`, file: new File([readFileSync(full)], name, { lastModified: 1_700_000_000_000 }) });
    }
  };
  walk(dir);
  return { kind: 'files', files };
}

async function started() {
  const host = new LiveHost();
  const events: AgentEvent[] = [];
  await host.start({ id: 's', folder: snapshot(), config, model: { kind: 'scripted', script: SCRIPT }, journal: [] }, (event) => events.push(event));
  return { host, events };
}

describe('the live host', () => {
  it('runs the demo turns over the snapshot: tools, an @file mention, an overflow answered by one compaction', async () => {
    const { host, events } = await started();
    expect((await host.send('s', 'What is in this folder?')).status).toBe('done');
    expect((await host.send('s', 'Explain @src/parser.py')).status).toBe('done');
    const mention = events.flatMap((e) => (e.type === 'entry' && e.entry.role === 'user' ? [e.entry] : [])).at(-1);
    expect(JSON.stringify(mention?.blocks)).toContain('You MUST read this file with the Read tool');
    expect(JSON.stringify(mention?.blocks)).not.toContain('def parse_lines');
    expect((await host.send('s', 'Find every TODO')).status).toBe('done');
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions).toHaveLength(1);
    expect(events.some((e) => e.type === 'note' && /overflow/i.test(e.text))).toBe(true);
    expect(host.leaf('s')).toBe(events.flatMap((e) => (e.type === 'entry' ? [e.entry.id] : [])).at(-1));

    // What the Live tab shows of it, and the run the Runs view lists.
    const runtime = events.reduce<LiveRuntime>((state, event, i) => ({ ...state, ...applyLiveEvent(state, event, i * 10) }), IDLE_RUNTIME);
    expect(runtime.calls).toBeGreaterThan(5);
    expect(runtime.lastCompaction).toMatch(/^overflow at call \d+: [\d,]+ → [\d,]+ tokens$/);
    expect(runtime.tools.every((tool) => tool.ok === true)).toBe(true);
    expect(runtime.costUsd).toBeUndefined();
    const event = compactions[0]!;
    const run = liveRun(event as Extract<AgentEvent, { type: 'compaction' }>, { conversationId: 'c', strategy: 'pi', counter: 'chars4', contextWindow: 200_000, leafId: 'x', createdAt: 5 });
    expect(run.record.summary_applied).toBe(true);
    expect(run.context.filter((item) => item.origin === 'summary')).toHaveLength(1);
    expect(run.plan.trigger).toEqual(run.record.trigger);
  });

  it('Stop aborts the reply being streamed: the turn ends stopped and no assistant entry is kept', async () => {
    const { host, events } = await started();
    const turn = host.send('s', 'What is in this folder?');
    await new Promise((resolve) => setTimeout(resolve, 20));
    host.stop('s');
    expect((await turn).status).toBe('stopped');
    expect(events.filter((e) => e.type === 'entry' && e.entry.role === 'assistant')).toHaveLength(0);
  });

  it('Stop later in the turn (after a tool ran) ends it stopped as well', async () => {
    const { host, events } = await started();
    await host.send('s', 'What is in this folder?');
    const turn = host.send('s', 'Explain @src/parser.py');
    while (!events.some((e) => e.type === 'tool' && e.call.name === 'read')) await new Promise((resolve) => setTimeout(resolve, 5));
    host.stop('s');
    expect((await turn).status).toBe('stopped');
  });

  it('pastes the mentioned file into the message when the session was set up to', async () => {
    const host = new LiveHost();
    const events: AgentEvent[] = [];
    await host.start({ id: 's', folder: snapshot(), config: { ...config, mentions: 'paste' }, model: { kind: 'scripted', script: SCRIPT }, journal: [] }, (event) => events.push(event));
    await host.send('s', 'What is in this folder?');
    await host.send('s', 'Explain @src/parser.py');
    const mention = events.flatMap((e) => (e.type === 'entry' && e.entry.role === 'user' ? [e.entry] : [])).at(-1);
    expect(JSON.stringify(mention?.blocks)).toContain('def parse_lines');
  });

  it('a session that is not running says so', async () => {
    await expect(new LiveHost().send('nope', 'hi')).rejects.toThrow('This live session is not running: open its folder again.');
  });
});

describe('the Live tab state', () => {
  it('tokens per second from the streamed text (chars/4), cost from the price table', () => {
    let state: LiveRuntime = IDLE_RUNTIME;
    const apply = (event: AgentEvent, now: number) => (state = { ...state, ...applyLiveEvent(state, event, now) });
    apply({ type: 'delta', delta: { type: 'text', text: 'x'.repeat(40) } }, 1_000);
    apply({ type: 'delta', delta: { type: 'text', text: 'y'.repeat(40) } }, 2_000);
    expect(state.streaming).toHaveLength(80);
    expect(state.tokensPerSecond).toBe(20);
    apply({ type: 'call', call: 1, contextTokens: 900, usage: { input: 1_000_000, output: 1_000_000 }, model: 'gpt-4o-mini' }, 2_100);
    expect(state.costUsd).toBeCloseTo(0.75);
    expect(state.streaming).toBe('');
    apply({ type: 'call', call: 2, contextTokens: 900, usage: { input: 10, output: 10 }, model: 'someone-elses-model' }, 2_200);
    expect(state.costUsd).toBeCloseTo(0.75);
    expect(state.usage).toEqual({ input: 1_000_010, output: 1_000_010 });
  });
});
