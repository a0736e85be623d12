// The live loop with a fake model: tool round trips, CODE_LAW.md, Stop, overflow recovery (P1)
// and the model's own summarize_context (F14) followed by query_history (F7).
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import type { Entry } from '../journal/entry.ts';
import { fakeSession, fakeTool, memoryFolder, type FakeStep } from './testing.ts';
import type { AgentSessionOptions, AgentTool, ModelRequest } from './types.ts';

const prompts = loadPrompts();

const setup = (steps: Parameters<typeof fakeSession>[0], overrides: Partial<AgentSessionOptions> = {}, tools?: AgentTool[]) => fakeSession(steps, { prompts, ...overrides }, tools);

const signal = () => new AbortController().signal;
const texts = (request: ModelRequest) => request.context.map((item) => JSON.stringify(item.entry.blocks));

describe('a turn with tools', () => {
  it('runs a tool call and records call and result linked both ways, every entry reported once in order', async () => {
    const { session, model, of } = setup([{ text: 'Reading.', toolCalls: [{ name: 'read', input: { path: 'a.txt' } }] }, { text: 'It says alpha.' }]);
    const result = await session.send('What is in a.txt?', signal());
    expect(result).toEqual({ status: 'done', calls: 2 });
    const entries = session.entries;
    expect(entries.map((e) => e.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(of('entry').map((e) => e.entry)).toEqual(entries);
    expect(new Set(entries.map((e) => e.id)).size).toBe(4);
    entries.forEach((entry, i) => expect(entry.parentId).toBe(i === 0 ? null : entries[i - 1]!.id));
    const call = entries[1]!.blocks.find((b) => b.type === 'tool_call');
    const res = entries[2]!.blocks[0]!;
    expect(call?.type === 'tool_call' && call.resultEntryId).toBe(entries[2]!.id);
    expect(res.type === 'tool_result' && res.callEntryId).toBe(entries[1]!.id);
    expect(res.type === 'tool_result' && res.content).toEqual([{ type: 'text', text: 'alpha file\n' }]);
    expect(session.leafId).toBe(entries[3]!.id);
    // The second request carries the result as data, inside a tag; the journal keeps the raw text.
    const sent = model.requests[1]!.context.at(-1)!.entry.blocks[0]!;
    expect(sent.type === 'tool_result' && sent.content[0]?.type === 'text' && sent.content[0].text).toBe('<tool-output>\nalpha file\n\n</tool-output>');
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['read', 'query_history', 'summarize_context', 'todo_write', 'todo_read']);
    expect(model.requests[0]!.system).toContain('named "project"');
    expect(of('tool')).toHaveLength(1);
    expect(of('call').map((c) => c.call)).toEqual([0, 1]);
    expect(of('call')[1]!.contextTokens).toBeGreaterThan(of('call')[0]!.contextTokens);
    expect(of('state').at(-1)).toEqual({ type: 'state', busy: false, phase: 'idle' });
  });

  it('answers unknown tools and failing tools with error results, so no call is left without one', async () => {
    const boom = fakeTool('boom', () => Promise.reject(new Error('disk on fire')));
    const { session } = setup([{ toolCalls: [{ name: 'nope' }, { name: 'boom' }] }, { text: 'ok' }], {}, [boom]);
    await session.send('go', signal());
    const results = session.entries.filter((e) => e.role === 'tool').map((e) => e.blocks[0]!);
    expect(results.map((b) => b.type === 'tool_result' && [b.isError, b.content[0]!.type === 'text' && b.content[0]!.text])).toEqual([
      [true, 'Unknown tool "nope": the tools are boom, query_history, summarize_context, todo_write, todo_read.'],
      [true, 'boom failed: disk on fire'],
    ]);
  });

  it('ends a turn whose model never stops calling tools, and reports a provider error as it came', async () => {
    const looping = setup(Array.from({ length: 10 }, () => ({ toolCalls: [{ name: 'read', input: { path: 'a.txt' } }] })), { maxCallsPerTurn: 3 });
    const result = await looping.session.send('loop', signal());
    expect(result.status).toBe('failed');
    expect(result.calls).toBe(3);
    expect(result.error).toContain('maxCallsPerTurn 3');
    const failing = setup([{ error: 'HTTP 503: provider unavailable' }]);
    expect(await failing.session.send('hi', signal())).toEqual({ status: 'failed', calls: 1, error: 'HTTP 503: provider unavailable' });
    expect(failing.of('compaction')).toHaveLength(0);
    expect(failing.session.entries.map((e) => e.role)).toEqual(['user']);
  });

  it('puts CODE_LAW.md (any case) first in the context at every call and never in the journal', async () => {
    const { session, model, folder } = setup([{ text: 'ok' }], {}, []);
    (folder as unknown as { name: string }).name = 'project';
    const law = memoryFolder({ 'Code_Law.MD': 'Rule 1: tabs are forbidden.', 'src/x.ts': '' });
    const s2 = setup([{ text: 'ok' }], { folder: law });
    await s2.session.send('hi', signal());
    const first = s2.model.requests[0]!.context[0]!;
    expect(first.origin).toBe('synthetic');
    expect(first.role).toBe('system');
    expect(JSON.stringify(first.entry.blocks)).toContain('Rule 1: tabs are forbidden.');
    expect(JSON.stringify(first.entry.blocks)).toContain('<code-law>');
    expect(JSON.stringify(s2.session.entries)).not.toContain('tabs are forbidden');
    await session.send('hi', signal());
    expect(texts(model.requests[0]!).join()).not.toContain('code-law');
  });
});

describe('the user message', () => {
  it('gets the reminder its @file mentions call for (L8), in the journal and in the request', async () => {
    const { session, model } = setup([{ text: 'It says alpha.' }]);
    await session.send('What does @a.txt say? Mail me@example.com', signal());
    const text = JSON.stringify(session.entries[0]!.blocks);
    expect(text).toContain('What does @a.txt say?');
    expect(text).toContain('<system-reminder>');
    expect(text).toContain('The user mentioned @a.txt.');
    expect(text).toContain('You MUST read this file with the Read tool before answering.');
    expect(text).not.toContain('alpha file');
    expect(text).not.toContain('@example.com,');
    expect(JSON.stringify(model.requests[0]!.context.at(-1)!.entry.blocks)).toBe(text);
  });
});

describe('Stop', () => {
  it('aborts a reply mid-stream: no assistant entry is kept and the turn is stopped', async () => {
    const { session, events } = setup([{ text: 'A long answer that is cut', hang: true }]);
    const controller = new AbortController();
    const sent = session.send('Explain', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events.some((e) => e.type === 'delta')).toBe(true);
    controller.abort();
    expect(await sent).toEqual({ status: 'stopped', calls: 1 });
    expect(session.entries.map((e) => e.role)).toEqual(['user']);
    expect(events.some((e) => e.type === 'compaction')).toBe(false);
  });

  it('stops a tool that ignores the signal at once and records its call as not run', async () => {
    const stuck = fakeTool('read', () => new Promise<string>(() => undefined));
    const { session, of } = setup([{ toolCalls: [{ name: 'read' }, { name: 'read' }] }], {}, [stuck]);
    const controller = new AbortController();
    const sent = session.send('go', controller.signal);
    while (!of('state').some((s) => s.phase === 'tool')) await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    expect((await sent).status).toBe('stopped');
    const results = session.entries.filter((e) => e.role === 'tool');
    expect(results).toHaveLength(2);
    for (const entry of results) expect(JSON.stringify(entry.blocks)).toContain('Not run: the user stopped the turn.');
  });
});

/**
 * A first turn that reads the big file (500 tokens with chars/4) and answers at length (about 130
 * tokens), so pi (keepRecentTokens 100) keeps the answer and summarizes the read.
 */
const FIRST_TURN: FakeStep[] = [{ toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] }, { text: `Read it: ${'it is all x. '.repeat(40)}` }];

function compactions(entries: readonly Entry[]) {
  return entries.filter((e) => e.kind === 'compaction' && e.marker?.source === 'pi.compaction');
}

describe('context overflow (P1)', () => {
  it('drops the error, compacts once and retries once', async () => {
    const { session, model, of } = setup([...FIRST_TURN, { error: 'overflow' }, { text: 'Now it fits.' }]);
    await session.send('Read big.txt', signal());
    expect(of('compaction')).toHaveLength(0);
    const result = await session.send('And now?', signal());
    expect(result).toEqual({ status: 'done', calls: 2 });
    expect(of('compaction')).toHaveLength(1);
    expect(of('compaction')[0]!.trigger).toBe('overflow');
    expect(model.requests).toHaveLength(4);
    const [, , overflowed, retried] = of('call').map((c) => c.contextTokens);
    expect(retried!).toBeLessThan(overflowed! - 300);
    expect(texts(model.requests[3]!).join()).not.toContain('xxxxxxxx');
    const records = compactions(session.entries);
    expect(records).toHaveLength(1);
    expect(records[0]!.marker).toMatchObject({ trigger: 'overflow', tokensBefore: of('compaction')[0]!.tokensBefore });
    expect(session.entries.map((e) => e.id)).toContain(records[0]!.marker!.firstKeptEntryId);
    expect(session.entries.filter((e) => e.role === 'assistant').map((e) => JSON.stringify(e.blocks))).not.toContain('overflow');
    expect(of('progress').map((p) => p.progress.phase)).toEqual(['planning', 'summarizing', 'summarizing', 'assembling', 'done']);
  });

  it('reports a second overflow as "recovery failed" and never loops', async () => {
    const { session, model, of } = setup([...FIRST_TURN, { error: 'overflow' }, { error: 'overflow' }, { text: 'never sent' }]);
    await session.send('Read big.txt', signal());
    const result = await session.send('And now?', signal());
    expect(result.status).toBe('failed');
    expect(result.calls).toBe(2);
    expect(result.error).toContain('recovery failed');
    expect(model.requests).toHaveLength(4);
    expect(of('compaction')).toHaveLength(1);
    expect(of('note').map((n) => n.text).join('\n')).toContain('recovery failed');
  });
});

describe('summarize_context and query_history', () => {
  it('compacts when the model asks, and query_history finds what was summarized', async () => {
    const files = { 'notes.md': `The deploy key is needle-42.\n${'filler '.repeat(300)}` };
    const folderRead = fakeTool('read', () => files['notes.md']);
    let recalled = '';
    const { session, model, of } = setup([
      { toolCalls: [{ name: 'read', input: { path: 'notes.md' } }] },
      { text: `Noted: ${'the notes are long. '.repeat(30)}` },
      { toolCalls: [{ name: 'summarize_context', input: { instruction: 'keep the key' } }] },
      { toolCalls: [{ name: 'query_history', input: { query: 'needle-42' } }] },
      (request) => {
        recalled = JSON.stringify(request.context.at(-1)!.entry.blocks);
        return { text: 'The key is needle-42.' };
      },
    ], {}, [folderRead]);
    await session.send('Read notes.md', signal());
    expect(await session.send('Tidy up, then tell me the key', signal())).toEqual({ status: 'done', calls: 3 });
    expect(of('compaction').map((c) => [c.trigger, c.atCall])).toEqual([['summarize_context', 3]]);
    expect(model.requests[3]!.context.some((item) => item.origin === 'summary')).toBe(true);
    expect(texts(model.requests[3]!).join()).not.toContain('filler filler');
    expect(recalled).toContain('needle-42');
    expect(recalled).toContain('tool result read');
  });
});
