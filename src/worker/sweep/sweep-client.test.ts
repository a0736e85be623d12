// How many sweep workers the page starts: one per logical core up to the cap, one where no Worker exists.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageSweepWorkers } from './sweep-client.ts';
import { MAX_SWEEP_WORKERS } from './sweep-pool.ts';
import { browserSweepWorker } from './sweep-spawn.ts';

afterEach(() => vi.unstubAllGlobals());

describe('the page\'s sweep workers', () => {
  it('are module workers of the engine\'s bundle, one per logical core up to the cap', () => {
    vi.stubGlobal('Worker', class {});
    expect(pageSweepWorkers(4)).toEqual({ spawn: browserSweepWorker, size: 4 });
    expect(pageSweepWorkers(64).size).toBe(MAX_SWEEP_WORKERS);
    expect(pageSweepWorkers(undefined).size).toBe(1);
  });

  it('are one where the page cannot start a Worker', () => {
    vi.stubGlobal('Worker', undefined);
    expect(pageSweepWorkers(4).size).toBe(1);
  });
});
