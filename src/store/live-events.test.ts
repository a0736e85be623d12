// A compaction of the live loop stored as a run like the Compact tab's: the strategy's plan with
// one fate per entry of the compacted branch (kept, summarized, compressed, dropped), the journal
// index of each, and the summaries by the plan's task id.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../cli/load.ts';
import { fakeSession, type FakeStep } from '../core/agent/testing.ts';
import type { AgentEvent } from '../core/agent/types.ts';
import type { AgentSessionOptions } from '../core/agent/types.ts';
import { liveRun } from './live-events.ts';

const prompts = loadPrompts();
const read = (n: number): FakeStep => ({ toolCalls: [{ name: 'read', input: { path: 'big.txt' }, id: `call-${n}` }] });

async function compacted(strategy: AgentSessionOptions['strategy'], contextWindow: number) {
  const { session, of } = fakeSession([read(1), { text: 'One.' }, read(2), { text: 'Two.' }, read(3), { text: 'Three.' }, read(4), { text: 'Four.' }], { prompts, strategy, contextWindow });
  for (const text of ['first', 'second', 'third', 'fourth']) await session.send(text, new AbortController().signal);
  const event = of('compaction')[0] as Extract<AgentEvent, { type: 'compaction' }> | undefined;
  expect(event).toBeDefined();
  const run = liveRun(event!, { conversationId: 'c', strategy: strategy.strategy, counter: 'chars4', contextWindow, leafId: session.leafId, createdAt: 5 });
  return { run, event: event!, entries: session.entries };
}

describe('liveRun', () => {
  it('stores the plan of a summarizing compaction: a fate per branch entry, their journal indices, the summaries by task id', async () => {
    const { run, entries } = await compacted({ strategy: 'pi', options: { keepRecentTokens: 100, reserveTokens: 256 } }, 1500);
    const { plan, journalIndex } = run;
    expect(plan.fates.length).toBeGreaterThan(4);
    expect(journalIndex).toHaveLength(plan.fates.length);
    expect(plan.fates).toContain('summarize');
    expect(plan.fates).toContain('keep');
    // Each index names the journal entry the fate is about (the model context of the branch, in order).
    const inputs = journalIndex.map((index) => entries[index]!);
    expect(inputs.every((entry) => entry.kind === 'message')).toBe(true);
    expect(inputs[0]!.blocks).toEqual([{ type: 'text', text: 'first' }]);
    expect(plan.cut).toBeDefined();
    expect(plan.fates.slice(plan.cut!.index).every((fate) => fate === 'keep')).toBe(true);
    expect(Object.keys(run.summaries)).toEqual(plan.summaries.map((task) => task.id));
    expect(plan.notes.at(-1)).toMatch(/^Compacted by the live session at model call \d+ \(threshold\)\.$/);
    expect(run.record.summarized_messages).toBe(plan.fates.filter((fate) => fate === 'summarize').length);
  });

  it('stores the compressed fates of a masking compaction', async () => {
    const { run } = await compacted({ strategy: 'observation-masking', options: { keepTurns: 1 } }, 200_000);
    expect(run.plan.fates.filter((fate) => fate === 'compress').length).toBe(run.plan.compressions.length);
    expect(run.plan.compressions.length).toBeGreaterThan(0);
    expect(run.journalIndex).toHaveLength(run.plan.fates.length);
    expect(run.record.compressed_messages).toBe(run.plan.compressions.length);
  });
});
