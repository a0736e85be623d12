// A compaction the cache-expiry timer made is placed between the two calls, at the timer's moment;
// every other one before the call it precedes.
import { describe, expect, it } from 'vitest';
import { compactionMoment } from './compaction-moment.ts';

describe('compactionMoment', () => {
  it('puts a cache-expiry compaction between the calls at the timer', () => {
    expect(compactionMoment({ call: 4, trigger: { rule: 'cacheExpiring', numbers: { cacheFiresAt: Date.UTC(2026, 0, 2, 3, 4, 5) } } }))
      .toBe('between calls 4 and 5, when the cache-expiry timer fired (2026-01-02 03:04:05 UTC)');
  });

  it('puts any other compaction before its call', () => {
    expect(compactionMoment({ call: 4, trigger: { rule: 'historySize', numbers: { cacheFiresAt: 1 } } })).toBe('before call 5');
    expect(compactionMoment({ call: 0, trigger: { rule: 'cacheExpiring', numbers: { cacheFiresAt: 1 } } })).toBe('before call 1');
  });
});
