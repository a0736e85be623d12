// P1's recovery when the strategy at its options has nothing to compact: the pi-style fallback
// summarizes the older half and the retry goes through; when even that changes nothing the turn
// fails with what the user can change.
import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { fakeSession, type FakeStep } from './testing.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;
const read: FakeStep = { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] };

describe('overflow recovery with nothing to compact at the strategy\'s options', () => {
  it.each([
    ['pi', {}],
    ['layered', {}],
    ['sliding-window', {}],
  ] as const)('%s at its defaults: the older half is summarized, the retry is sent and the turn ends done', async (strategy, options) => {
    const { session, model, of } = fakeSession([read, { text: 'Read it.' }, read, { text: 'Read it again.' }, { error: 'overflow' }, { text: 'Now it fits.' }], {
      prompts, contextWindow: 200_000, strategy: { strategy, options },
    });
    await session.send('Read big.txt', signal());
    await session.send('Read it again', signal());
    const result = await session.send('And now?', signal());
    expect(result).toEqual({ status: 'done', calls: 2 });
    const notes = of('note').map((n) => n.text);
    expect(notes.some((text) => text.includes('nothing to compact at its options') && text.includes('summarized as pi does'))).toBe(true);
    const [compaction] = of('compaction');
    expect(compaction!.trigger).toBe('overflow');
    expect(compaction!.record.summary_applied).toBe(true);
    // The retry is sent with a summary in place of the older half: the first read of big.txt is no longer in it.
    const reads = (i: number) => JSON.stringify(model.requests[i]!.context.map((item) => item.entry.blocks)).split('x'.repeat(2000)).length - 1;
    expect([reads(4), reads(5)]).toEqual([2, 1]);
    expect(model.requests[5]!.context.some((item) => item.origin === 'summary')).toBe(true);
  });

  it('fails with both reasons and what the user can change when not even the fallback has anything to compact', async () => {
    const { session, model, of } = fakeSession([{ error: 'overflow' }, { text: 'never sent' }], {
      prompts, contextWindow: 200_000, strategy: { strategy: 'pi', options: {} },
    });
    const result = await session.send('The very first message', signal());
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/^Context overflow: recovery failed: pi compaction had nothing to compact \(Too short to compact: .*\), nor had a summary of the older half of the branch \(.*\)\. What you can change: set the context window to the model's real one/);
    expect(model.requests).toHaveLength(1);
    expect(of('compaction')).toHaveLength(0);
    expect(of('note').at(-1)!.text).toBe(result.error);
  });
});
