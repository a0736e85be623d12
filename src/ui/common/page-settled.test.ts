// The settle watcher that holds back the service worker's registration until the first screen is done.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenPageSettles, type SettleSource } from './page-settled.ts';

function jobs(): SettleSource & { set: (busy: boolean) => void } {
  let running = false;
  const listeners = new Set<() => void>();
  return {
    busy: () => running,
    subscribe: (changed) => {
      listeners.add(changed);
      return () => listeners.delete(changed);
    },
    set: (busy) => {
      running = busy;
      listeners.forEach((changed) => changed());
    },
  };
}

/** An idle callback the test fires by hand. */
function manualIdle() {
  const pending = new Set<() => void>();
  return {
    whenIdle: (run: () => void) => {
      pending.add(run);
      return () => pending.delete(run);
    },
    fire: () => [...pending].forEach((run) => run()),
    size: () => pending.size,
  };
}

describe('whenPageSettles', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles after the quiet spell and the next idle moment, once', () => {
    const source = jobs();
    const idle = manualIdle();
    const settled = vi.fn();
    whenPageSettles(source, settled, { quietMs: 1_000, maxWaitMs: 30_000, whenIdle: idle.whenIdle });
    vi.advanceTimersByTime(999);
    expect(idle.size()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(settled).not.toHaveBeenCalled();
    idle.fire();
    expect(settled).toHaveBeenCalledTimes(1);
    source.set(true);
    source.set(false);
    vi.advanceTimersByTime(60_000);
    idle.fire();
    expect(settled).toHaveBeenCalledTimes(1);
  });

  it('waits for the first visit demo import and its count: a job starting during the quiet spell starts it over', () => {
    const source = jobs();
    const idle = manualIdle();
    const settled = vi.fn();
    whenPageSettles(source, settled, { quietMs: 1_000, maxWaitMs: 30_000, whenIdle: idle.whenIdle });
    vi.advanceTimersByTime(200);
    source.set(true); // the demo import starts
    vi.advanceTimersByTime(5_000);
    source.set(false); // imported; the count starts right after
    vi.advanceTimersByTime(50);
    source.set(true);
    vi.advanceTimersByTime(2_000);
    expect(idle.size()).toBe(0);
    source.set(false);
    vi.advanceTimersByTime(1_000);
    expect(idle.size()).toBe(1);
    source.set(true); // a job starts while waiting for idle: the idle wait is dropped
    expect(idle.size()).toBe(0);
    source.set(false);
    vi.advanceTimersByTime(1_000);
    idle.fire();
    expect(settled).toHaveBeenCalledTimes(1);
  });

  it('settles after the longest wait even while a job keeps running', () => {
    const source = jobs();
    const settled = vi.fn();
    source.set(true);
    whenPageSettles(source, settled, { quietMs: 1_000, maxWaitMs: 30_000, whenIdle: manualIdle().whenIdle });
    vi.advanceTimersByTime(29_999);
    expect(settled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(settled).toHaveBeenCalledTimes(1);
  });

  it('never settles once cancelled, and lets go of its subscription', () => {
    const source = jobs();
    const idle = manualIdle();
    const settled = vi.fn();
    const subscribe = vi.spyOn(source, 'subscribe');
    const cancel = whenPageSettles(source, settled, { quietMs: 1_000, maxWaitMs: 30_000, whenIdle: idle.whenIdle });
    const unsubscribe = subscribe.mock.results[0]!.value as () => boolean;
    vi.advanceTimersByTime(1_000);
    cancel();
    idle.fire();
    vi.advanceTimersByTime(60_000);
    expect(settled).not.toHaveBeenCalled();
    expect(unsubscribe()).toBe(false); // already removed
  });
});
