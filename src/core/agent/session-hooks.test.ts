// P8 in the live session: before-compact / after-compact around the loop's compactions (a summary
// the hook writes, a cancel, an after-compact failure that leaves the compaction standing) and
// before-fork on a branch move, where it may write the branch summary or keep the session where it is.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import type { HookName, HookRunner } from '../hooks/user-hooks.ts';
import { branchSummaryPreamble } from './branch-summary.ts';
import { fakeSession, type FakeStep } from './testing.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;
const read: FakeStep = { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] };

/** The user's hooks, in process: what each returns (or throws), and every call it got. */
function hooks(impl: Partial<Record<HookName, (event: Record<string, unknown>) => unknown>>): HookRunner & { calls: Array<[HookName, Record<string, unknown>]> } {
  const calls: Array<[HookName, Record<string, unknown>]> = [];
  return {
    calls,
    hooks: new Set(Object.keys(impl) as HookName[]),
    call: (name, event) => {
      calls.push([name, event as Record<string, unknown>]);
      try {
        return Promise.resolve(impl[name]!(event as Record<string, unknown>));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}

/** Two turns, the second asking for a compaction (summarize_context) before its answer. */
const COMPACTING: FakeStep[] = [read, { text: 'Read it.' }, { toolCalls: [{ name: 'summarize_context' }] }, { text: 'Compacted.' }];

describe('compaction hooks in the live session', () => {
  it('before-compact sees the plan and writes the summary; after-compact is told what the run made', async () => {
    const runner = hooks({ 'before-compact': () => ({ summary: 'THE HOOK SUMMARY' }), 'after-compact': () => undefined });
    const { session, summarizer, of } = fakeSession(COMPACTING, { prompts, hooks: runner });
    await session.send('Read big.txt', signal());
    await session.send('Tidy up', signal());
    expect(of('compaction')).toHaveLength(1);
    expect(JSON.stringify(session.entries.find((e) => e.kind === 'compaction')!.blocks)).toContain('THE HOOK SUMMARY');
    expect(summarizer.requests).toHaveLength(0);
    const [[first, before], [second, after]] = runner.calls as [[HookName, Record<string, unknown>], [HookName, Record<string, unknown>]];
    expect(first).toBe('before-compact');
    expect(before).toMatchObject({ strategy: 'pi' });
    expect(JSON.stringify(before.entries)).toContain('Read big.txt');
    expect(second).toBe('after-compact');
    expect(after).toMatchObject({ strategy: 'pi', summaryApplied: true });
    expect(Object.values(after.summaries as Record<string, string>)).toContain('THE HOOK SUMMARY');
  });

  it('a cancel leaves the context as it was and says so; the turn goes on', async () => {
    const runner = hooks({ 'before-compact': () => ({ cancel: true, reason: 'not now' }) });
    const { session, of } = fakeSession(COMPACTING, { prompts, hooks: runner });
    await session.send('Read big.txt', signal());
    expect(await session.send('Tidy up', signal())).toEqual({ status: 'done', calls: 2 });
    expect(of('compaction')).toHaveLength(0);
    expect(of('note').map((n) => n.text)).toContain('Compaction failed: The before-compact hook cancelled the compaction: not now. Nothing was changed.');
  });

  it('an after-compact that throws is a note: the compaction stands', async () => {
    const runner = hooks({ 'after-compact': () => { throw new Error('disk full'); } });
    const { session, of } = fakeSession(COMPACTING, { prompts, hooks: runner });
    await session.send('Read big.txt', signal());
    await session.send('Tidy up', signal());
    expect(of('compaction')).toHaveLength(1);
    expect(of('note').map((n) => n.text)).toContain('disk full The compaction stands.');
  });
});

describe('before-fork on a branch move', () => {
  const steps: FakeStep[] = [{ text: 'First answer.' }, { text: 'Answer on the new branch.' }];

  it('is told what is left behind and may write the branch summary itself', async () => {
    const runner = hooks({ 'before-fork': (event) => ({ summary: `Left ${String(event.entriesLeftOut)} entries.` }) });
    const { session, summarizer, of } = fakeSession(steps, { prompts, hooks: runner });
    await session.send('First question', signal());
    const [user, assistant] = session.entries;
    expect(await session.editAndResend(user!.id, 'Another question', signal())).toEqual({ status: 'done', calls: 1 });
    expect(runner.calls).toEqual([['before-fork', {
      kind: 'branch-move', entryId: '', entryIndex: -1, entriesLeftOut: 2, fromLeafId: assistant!.id,
      leftBehind: [{ id: user!.id, role: 'user', text: 'First question' }, { id: assistant!.id, role: 'assistant', text: 'First answer.' }],
    }]]);
    expect(summarizer.requests).toHaveLength(0);
    const [moved] = of('branch-summary');
    expect(moved!.entry.blocks).toEqual([{ type: 'text', text: `${branchSummaryPreamble(prompts)}Left 2 entries.` }]);
  });

  it('a cancel keeps the session where it is, with the reason', async () => {
    const runner = hooks({ 'before-fork': () => ({ cancel: true, reason: 'stay here' }) });
    const { session, model, of } = fakeSession(steps, { prompts, hooks: runner });
    await session.send('First question', signal());
    const leaf = session.leafId;
    expect(await session.editAndResend(session.entries[0]!.id, 'Another question', signal())).toEqual({ status: 'stopped', calls: 0 });
    expect(session.leafId).toBe(leaf);
    expect(model.requests).toHaveLength(1);
    expect(of('branch-summary')).toHaveLength(0);
    expect(of('note').at(-1)!.text).toBe('The branch was not moved: The before-fork hook cancelled the fork: stay here. Nothing was changed.');
  });

  it('a wrong answer keeps the session where it is and names what was expected', async () => {
    const { session, of } = fakeSession(steps, { prompts, hooks: hooks({ 'before-fork': () => ({ summary: '' }) }) });
    await session.send('First question', signal());
    await session.editAndResend(session.entries[0]!.id, 'Another question', signal());
    expect(of('note').at(-1)!.text).toBe('The branch was not moved: The before-fork hook returned an object with "summary"; expected nothing, { cancel: true, reason?: string } or { summary: "non-empty text" }.');
  });
});
