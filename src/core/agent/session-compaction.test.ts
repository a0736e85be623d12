// Compaction inside the live loop: the trigger before every call (A1) firing in the middle of a
// turn, the 120 s summary fallback of the layered strategy (L10), the layered ReAct scratchpad
// (L2) and the todo recap of the context order (L1).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { DEFAULT_SUMMARY_TIMEOUT_MS } from '../compaction/run.ts';
import { hangingSummarizer } from '../compaction/testing.ts';
import { TIMEOUT_MESSAGE } from '../strategies/layered/archived-summary.ts';
import { fakeSession, fakeTool, type FakeStep } from './testing.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;
const read: FakeStep = { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] };

afterEach(() => {
  vi.useRealTimers();
});

describe('the trigger before every call (A1)', () => {
  it('compacts in the middle of a turn as soon as the threshold is crossed, then carries on', async () => {
    const { session, model, of } = fakeSession([read, read, read, read, { text: 'Done reading.' }], {
      prompts, contextWindow: 2000, strategy: { strategy: 'pi', options: { reserveTokens: 256, keepRecentTokens: 100 } },
    });
    const result = await session.send('Read big.txt four times', signal());
    expect(result).toEqual({ status: 'done', calls: 5 });
    // 4 reads of 500 tokens: above 2,000 - 256 only after the fourth, so before the fifth call.
    expect(of('compaction').map((c) => [c.atCall, c.trigger])).toEqual([[4, 'threshold']]);
    const calls = of('call').map((c) => c.contextTokens);
    expect(calls[4]!).toBeLessThan(calls[3]! * 0.6);
    expect(model.requests[4]!.context.filter((item) => item.origin === 'summary')).toHaveLength(1);
    const phases = of('progress').map((p) => p.progress.phase);
    expect(phases[0]).toBe('planning');
    expect(phases).toContain('summarizing');
    expect(phases.slice(-2)).toEqual(['assembling', 'done']);
    expect(of('state').map((s) => s.phase)).toContain('compacting');
    // The record sits where the compaction happened, and the turn goes on below it.
    const record = session.entries.find((e) => e.kind === 'compaction')!;
    const after = session.entries.filter((e) => e.parentId === record.id);
    expect(after.map((e) => e.role)).toEqual(['assistant']);
  });
});

describe('the layered strategy in the loop', () => {
  it('falls back to hard truncation with the seed\'s message when the summary takes 120 s (L10)', async () => {
    vi.useFakeTimers();
    const { session, model, of } = fakeSession([
      { text: 'The first answer.', usage: { input: 900, output: 10 } },
      { text: 'The second answer.' },
    ], {
      prompts, summarizer: hangingSummarizer(), contextWindow: 1000,
      strategy: { strategy: 'layered', options: { keepTurns: 1, minMessages: 3 } },
    });
    await session.send('first question', signal());
    let done = false;
    const second = session.send('second question', signal()).then((result) => {
      done = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_SUMMARY_TIMEOUT_MS - 1);
    expect(done).toBe(false);
    expect(of('compaction')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await second).toEqual({ status: 'done', calls: 1 });
    expect(of('note').map((n) => n.text)).toContain(TIMEOUT_MESSAGE);
    const [compaction] = of('compaction');
    expect(compaction!.record.truncation_applied).toBe(true);
    expect(compaction!.record.summary_applied).toBe(false);
    const sent = JSON.stringify(model.requests[1]!.context);
    expect(sent).not.toContain('first question');
    expect(sent).toContain('second question');
  });

  it('keeps full observations in the current turn and sends older ones compressed (L2 scratchpad)', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `src/file${i}.ts:${i + 1}: match ${i}`).join('\n');
    const grep = fakeTool('grep', () => lines);
    const { session, model } = fakeSession([
      { toolCalls: [{ name: 'grep', input: { pattern: 'match' } }] },
      { text: 'Found 30.' },
      { text: 'Next.' },
    ], { prompts, strategy: { strategy: 'layered', options: {} } }, [grep]);
    await session.send('grep match', signal());
    const during = model.requests[1]!.context.at(-1)!;
    expect(during.origin).toBe('journal');
    expect(JSON.stringify(during.entry.blocks)).toContain('match 29');
    await session.send('next', signal());
    const older = model.requests[2]!.context.find((item) => item.entry.role === 'tool')!;
    expect(older.origin).toBe('compressed');
    const text = JSON.stringify(older.entry.blocks);
    expect(text).toContain('\\"status\\":\\"success\\"');
    expect(text).toContain('match 4');
    expect(text).not.toContain('match 29');
    // The journal keeps the full observation.
    expect(JSON.stringify(session.entries)).toContain('match 29');
  });
});

describe('the context order (L1)', () => {
  it('ends the context with a todo recap when the branch has a todo list (the loop\'s own todo_write)', async () => {
    const { session, model } = fakeSession([
      { toolCalls: [{ name: 'todo_write', input: { todos: [{ content: 'write tests', status: 'in_progress' }, { content: 'ship', status: 'pending' }] } }] },
      { text: 'Planned.' },
    ], { prompts });
    await session.send('Plan it', signal());
    expect(model.requests[0]!.context.some((item) => item.entry.sourceType === 'agent.todo-recap')).toBe(false);
    const last = model.requests[1]!.context.at(-1)!;
    expect(last.origin).toBe('synthetic');
    expect(JSON.stringify(last.entry.blocks)).toContain('Todo recap: 2 todos: 1 in_progress, 1 pending; in progress: write tests');
    expect(JSON.stringify(session.entries)).not.toContain('Todo recap');
  });
});
