// The live session's between-calls timer and a replay decide through the same trigger unit
// (replay/trigger-loop.ts): on the same transcript, Augment's cache-expiry trigger fires at the
// same moment, between the same two calls, whether the session ran live or is replayed after.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { makeInput } from '../compaction/testing.ts';
import { compactionMoment } from '../replay/compaction-moment.ts';
import { replaySession } from '../replay/replay.ts';
import * as loop from '../replay/trigger-loop.ts';
import { getEstimator } from '../tokens/counters.ts';
import { fakeSession, type FakeStep } from './testing.ts';

vi.mock('../replay/trigger-loop.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../replay/trigger-loop.ts')>();
  return { ...real, wakeAfterCall: vi.fn(real.wakeAfterCall) };
});

const prompts = loadPrompts();
const signal = () => new AbortController().signal;
const read: FakeStep = { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] };
/** Augment whose proactive trigger never fires here; the cache-expiry one at 1,000 chars, TTL 300 s, buffer 30 s (the defaults). */
const AUGMENT = { strategy: 'augment' as const, options: { triggerOnHistorySizeChars: 1_000_000, triggerOnHistorySizeCharsWhenCacheExpiring: 1_000, historyTailSizeCharsToExclude: 0 } };
const DELAY = 300_000 - 30_000;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  vi.clearAllMocks();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the cache-expiry timer, live and replayed', () => {
  it('arms after each call at the moment the trigger unit names, and a replay of the same transcript fires it at that moment between the same calls', async () => {
    const { session, of, summarizer } = fakeSession([read, { text: 'Read it.' }, { text: 'Second answer.' }, { text: 'Third answer.' }], {
      prompts, strategy: AUGMENT, contextWindow: 200_000, now: () => Date.now(),
    });
    await session.send('Read big.txt', signal());
    await session.send('And then?', signal());
    // Asked once after each of the three calls; the last answer is the moment the timer is armed for.
    expect(loop.wakeAfterCall).toHaveBeenCalledTimes(3);
    const armedFor = vi.mocked(loop.wakeAfterCall).mock.results.at(-1)!.value as number;
    expect(armedFor).toBe(Date.now() + DELAY);
    await vi.advanceTimersByTimeAsync(DELAY - 1);
    expect(of('compaction')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(Date.now()).toBe(armedFor);
    const [live] = of('compaction');
    expect(live).toMatchObject({ trigger: 'cacheExpiring', atCall: 3 });
    // The user comes back later and the session goes on.
    await vi.advanceTimersByTimeAsync(600_000);
    await session.send('Go on', signal());

    // The same transcript without the compaction the session recorded, replayed afterwards.
    const recorded = session.entries.filter((entry) => entry.kind !== 'compaction');
    const input = makeInput(recorded, { contextWindow: 200_000, counter: getEstimator('chars4') });
    const replayed = await replaySession({ input, config: AUGMENT, summarizer, prompts });
    expect(replayed.compactions).toHaveLength(1);
    const [compaction] = replayed.compactions;
    expect(compaction!.trigger.rule).toBe('cacheExpiring');
    expect(compaction!.trigger.numbers.cacheFiresAt).toBe(armedFor);
    // Between calls 3 and 4: where the live timer fired.
    expect(compaction!.call).toBe(live!.atCall);
    expect(compactionMoment(compaction!)).toMatch(/^between calls 3 and 4, when the cache-expiry timer fired/);
  });
});
