// The replay runs the user's hooks at each compaction: cancel, supply the summary, fail (P8).
import { describe, expect, it } from 'vitest';
import { makeInput } from '../compaction/testing.ts';
import { HookRuntimeError, HookTimeoutError, type HookName, type HookRunner } from '../hooks/user-hooks.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { replaySession } from './replay.ts';
import { agentSession } from './testing.ts';

const prompts = loadPrompts();
const session = agentSession(Array.from({ length: 12 }, (_, t) => ({ tools: 3, resultChars: 4000 + t * 100 })));
const config = { strategy: 'pi', options: { reserveTokens: 2000, keepRecentTokens: 3000 } };
const replay = (hooks?: HookRunner) => replaySession({ input: makeInput(session, { contextWindow: 12_000 }), config, summarizer: createOfflineSummarizer(), prompts, ...(hooks ? { hooks } : {}) });

/** A hook module answered by a function, with every call it got. */
function fakeHooks(answer: (name: HookName, event: Record<string, unknown>, n: number) => unknown, names: HookName[] = ['before-compact', 'after-compact']) {
  const calls: Array<{ name: HookName; event: Record<string, unknown> }> = [];
  const runner: HookRunner = {
    hooks: new Set(names),
    call: async (name, event) => {
      calls.push({ name, event: event as Record<string, unknown> });
      return answer(name, event as Record<string, unknown>, calls.filter((c) => c.name === name).length);
    },
  };
  return { runner, calls };
}

describe('replaySession with hooks', () => {
  it('asks before-compact at each compaction and tells after-compact what it made', async () => {
    const plain = await replay();
    const { runner, calls } = fakeHooks(() => undefined);
    const hooked = await replay(runner);
    expect(plain.compactions.length).toBeGreaterThan(1);
    // Hooks that change nothing give the same replay.
    expect(hooked.totals).toEqual(plain.totals);
    expect(calls.filter((c) => c.name === 'before-compact')).toHaveLength(plain.compactions.length);
    const after = calls.filter((c) => c.name === 'after-compact');
    expect(after.map((c) => c.event['tokensBefore'])).toEqual(plain.compactions.map((c) => c.plan.tokensBefore));
    expect(after[0]!.event).toMatchObject({ strategy: 'pi', summaryApplied: true });
    expect(calls[0]!.event['entries']).not.toHaveLength(0);
  });

  it('a cancel leaves that compaction out and the replay goes on; it is noted at that call', async () => {
    const plain = await replay();
    // The first compaction is cancelled, the later ones go ahead.
    const { runner } = fakeHooks((name, _event, n) => (name === 'before-compact' && n === 1 ? { cancel: true, reason: 'not yet' } : undefined));
    const hooked = await replay(runner);
    const first = plain.compactions[0]!.call;
    expect(hooked.calls).toHaveLength(plain.calls.length);
    expect(hooked.calls[first]!.compacted).toBe(false);
    expect(hooked.calls[first]!.contextTokens).toBeGreaterThan(plain.calls[first]!.contextTokens);
    expect(hooked.compactions[0]!.call).toBe(first + 1);
    expect(hooked.notes).toContain(`Call ${first + 1}: the before-compact hook cancelled the compaction (not yet); the replay went on with the context as it was.`);
    expect(hooked.error).toBeUndefined();
  });

  it('a summary from before-compact is what the compaction keeps', async () => {
    const { runner } = fakeHooks((name, event) => (name === 'before-compact' ? { summary: `Hook summary of ${(event['entries'] as unknown[]).length} entries` } : undefined), ['before-compact']);
    const hooked = await replay(runner);
    expect(hooked.compactions.length).toBeGreaterThan(0);
    for (const compaction of hooked.compactions) {
      expect(Object.values(compaction.summaries)[0]).toMatch(/^Hook summary of \d+ entries$/);
      expect(compaction.record.summarizer).toBe('hook');
    }
  });

  it('a hook that throws, times out or answers badly is noted and that compaction runs as without hooks', async () => {
    const plain = await replay();
    const { runner } = fakeHooks((name, _event, n) => {
      if (name === 'after-compact') throw new HookRuntimeError('after-compact', 'disk full', 3);
      if (n === 1) throw new HookRuntimeError('before-compact', 'bad input', 2);
      if (n === 2) throw new HookTimeoutError('before-compact', 2000);
      return { summary: '' };
    });
    const hooked = await replay(runner);
    expect(hooked.totals).toEqual(plain.totals);
    expect(hooked.compactions.map((c) => c.summaries)).toEqual(plain.compactions.map((c) => c.summaries));
    const [a, b, c] = plain.compactions.map((compaction) => compaction.call + 1);
    expect(hooked.notes).toContain(`Call ${a}: The before-compact hook threw: bad input (line 2). That compaction ran as without hooks.`);
    expect(hooked.notes).toContain(`Call ${b}: The before-compact hook did not answer within 2,000 ms and was stopped. Look for an endless loop, or make it faster. That compaction ran as without hooks.`);
    expect(hooked.notes.some((note) => note.startsWith(`Call ${c}: The before-compact hook returned`))).toBe(true);
    expect(hooked.notes).toContain(`Call ${a}: The after-compact hook threw: disk full (line 3). The compaction stands.`);
  });
});
