// A1 in the live loop: Augment's cache-expiry trigger as the seed schedules it, a timer armed
// after each model call (cacheTTLMs - cacheAge - buffer) and cancelled by the next call; when it
// fires with no call since, the session compacts between the calls. Fake timers drive the clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { hangingSummarizer } from '../compaction/testing.ts';
import { fakeSession, type FakeStep } from './testing.ts';
import type { AgentSessionOptions } from './types.ts';

const prompts = loadPrompts();
const signal = () => new AbortController().signal;
const read: FakeStep = { toolCalls: [{ name: 'read', input: { path: 'big.txt' } }] };
/** Augment whose proactive trigger never fires here; the cache-expiry one at 1,000 chars, TTL 300 s, buffer 30 s (the defaults). */
const AUGMENT = { strategy: 'augment' as const, options: { triggerOnHistorySizeChars: 1_000_000, triggerOnHistorySizeCharsWhenCacheExpiring: 1_000, historyTailSizeCharsToExclude: 0 } };
const DELAY = 300_000 - 30_000;

const setup = (steps: FakeStep[], overrides: Partial<AgentSessionOptions> = {}) =>
  fakeSession(steps, { prompts, strategy: AUGMENT, contextWindow: 200_000, now: () => Date.now(), ...overrides });

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the cache-expiry timer between calls (A1)', () => {
  it('fires cacheTTLMs - buffer after the last call and compacts between the calls, before the next request', async () => {
    const { session, model, of } = setup([read, { text: 'Read it.' }, { text: 'Second answer.' }, { text: 'Third answer.' }]);
    await session.send('Read big.txt', signal());
    await session.send('And then?', signal());
    await vi.advanceTimersByTimeAsync(DELAY - 1);
    expect(of('compaction')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    const [compaction] = of('compaction');
    expect(compaction).toMatchObject({ trigger: 'cacheExpiring', atCall: 3 });
    expect(compaction!.tokensAfter).toBeLessThan(compaction!.tokensBefore);
    expect(of('note').map((n) => n.text).join('\n')).toContain('timer armed after call 3 fired');
    expect(session.entries.at(-1)!.kind).toBe('compaction');
    expect(of('state').at(-1)).toEqual({ type: 'state', busy: false, phase: 'idle' });
    // The next request is sent with the summary the timer made.
    await session.send('Go on', signal());
    expect(model.requests.at(-1)!.context.some((item) => item.origin === 'summary')).toBe(true);
    expect(of('compaction')).toHaveLength(1);
  });

  it('is cancelled by the next call and armed again after it', async () => {
    const { session, of } = setup([read, { text: 'Read it.' }, { text: 'Second answer.' }]);
    await session.send('Read big.txt', signal());
    await vi.advanceTimersByTimeAsync(DELAY - 10_000);
    await session.send('And then?', signal());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(of('compaction')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(DELAY - 10_000);
    expect(of('compaction').map((c) => c.trigger)).toEqual(['cacheExpiring']);
  });

  it('Stop ends a compaction the timer started, keeping nothing; close disarms the timer', async () => {
    const stopped = setup([read, { text: 'Read it.' }, { text: 'Second answer.' }], { summarizer: hangingSummarizer() });
    await stopped.session.send('Read big.txt', signal());
    await stopped.session.send('And then?', signal());
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(stopped.of('state').at(-1)).toMatchObject({ busy: true, phase: 'compacting' });
    stopped.session.stopBackground();
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped.of('compaction')).toHaveLength(0);
    expect(stopped.of('state').at(-1)).toEqual({ type: 'state', busy: false, phase: 'idle' });

    const closed = setup([read, { text: 'Read it.' }]);
    await closed.session.send('Read big.txt', signal());
    closed.session.close();
    await vi.advanceTimersByTimeAsync(DELAY * 2);
    expect(closed.of('compaction')).toHaveLength(0);
  });

  it('arms nothing for a strategy without a timer, nor when the threshold is 0', async () => {
    const pi = setup([{ text: 'Hello.' }], { strategy: { strategy: 'pi', options: {} } });
    await pi.session.send('Hi', signal());
    expect(vi.getTimerCount()).toBe(0);
    const off = setup([{ text: 'Hello.' }], { strategy: { strategy: 'augment', options: { triggerOnHistorySizeCharsWhenCacheExpiring: 0 } } });
    await off.session.send('Hi', signal());
    expect(vi.getTimerCount()).toBe(0);
  });
});
