import { describe, expect, it } from 'vitest';
import { makeEntries, makeInput } from '../../compaction/testing.ts';
import type { Entry } from '../../journal/entry.ts';
import { piStrategy } from '../pi.ts';
import { isContextOverflow, lastRunEnd, shouldCompact, type CompactDecisionArgs } from './decision.ts';

const base: CompactDecisionArgs = {
  runEnd: { stopReason: 'stop', model: 'claude-opus-4-5' },
  // The brief's sample numbers (183,402 vs 200,000 - 16,384 = 183,616) are below the threshold, so the tests use 190,000.
  contextTokens: 190_000,
  contextWindow: 200_000,
  reserveTokens: 16_384,
  enabled: true,
  counterLabel: 'chars/4',
};

describe('shouldCompact (P1), branch by branch in pi\'s order', () => {
  it('aborted -> skip', () => {
    const d = shouldCompact({ ...base, runEnd: { stopReason: 'aborted' } });
    expect(d).toMatchObject({ compact: false, retry: false, rule: 'aborted' });
  });

  it('context overflow on the same model -> compact, drop the error reply, retry', () => {
    const d = shouldCompact({ ...base, contextTokens: 1000, currentModel: 'claude-opus-4-5', runEnd: { stopReason: 'error', model: 'claude-opus-4-5', errorMessage: 'prompt is too long: 213462 tokens > 200000 maximum' } });
    expect(d).toMatchObject({ compact: true, retry: true, dropErrorReply: true, rule: 'overflow' });
    expect(d.detail).toContain('prompt is too long');
  });

  it('context overflow reported by another model -> treated as any other error: skip', () => {
    const d = shouldCompact({ ...base, currentModel: 'gpt-5', runEnd: { stopReason: 'error', model: 'claude-opus-4-5', errorMessage: 'prompt is too long' } });
    expect(d).toMatchObject({ compact: false, rule: 'error' });
  });

  it('a prompt over the window that the provider accepted silently counts as an overflow', () => {
    const d = shouldCompact({ ...base, contextTokens: 1000, runEnd: { stopReason: 'stop', inputTokens: 210_000 } });
    expect(d).toMatchObject({ compact: true, retry: true, rule: 'overflow' });
  });

  it('other error -> skip, even above the threshold', () => {
    const d = shouldCompact({ ...base, runEnd: { stopReason: 'error', errorMessage: '529 overloaded' } });
    expect(d).toMatchObject({ compact: false, retry: false, rule: 'error' });
  });

  it('contextTokens > contextWindow - reserveTokens -> compact, no retry, with the numbers and the counter', () => {
    const d = shouldCompact(base);
    expect(d).toMatchObject({ compact: true, retry: false, dropErrorReply: false, rule: 'threshold' });
    expect(d.detail).toBe('contextTokens 190,000 > 200,000 - 16,384 (counted with chars/4)');
  });

  it('at or below the threshold -> no compaction', () => {
    const d = shouldCompact({ ...base, contextTokens: 183_616 });
    expect(d).toMatchObject({ compact: false, rule: 'below-threshold' });
    expect(d.detail).toBe('contextTokens 183,616 <= 200,000 - 16,384 (counted with chars/4): no compaction needed.');
    expect(shouldCompact({ ...base, contextTokens: 183_617 }).compact).toBe(true);
  });

  it('enabled = false -> never automatic', () => {
    expect(shouldCompact({ ...base, enabled: false })).toMatchObject({ compact: false, rule: 'disabled' });
  });

  it('no reply yet -> the threshold alone decides', () => {
    expect(shouldCompact({ ...base, runEnd: undefined }).rule).toBe('threshold');
  });
});

describe('isContextOverflow', () => {
  it.each([
    'prompt is too long: 213462 tokens > 200000 maximum',
    'Your input exceeds the context window of this model',
    'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)',
    "This model's maximum prompt length is 131072 but the request contains 537812 tokens",
    'Please reduce the length of the messages or completion',
    "This endpoint's maximum context length is 128000 tokens. However, you requested about 130000 tokens",
    'the request exceeds the available context size, try increasing it',
    'context_length_exceeded',
    '413 status code (no body)',
  ])('recognizes "%s"', (message) => {
    expect(isContextOverflow({ stopReason: 'error', errorMessage: message })).toBe(true);
  });

  it.each(['429 rate limit exceeded', 'overloaded_error', 'invalid api key'])('does not take "%s" for an overflow', (message) => {
    expect(isContextOverflow({ stopReason: 'error', errorMessage: message })).toBe(false);
  });
});

describe('lastRunEnd and the strategy trigger', () => {
  function ending(flags: Entry['flags'], text = 'reply'): Entry[] {
    const entries = makeEntries([{ user: 'x'.repeat(4000) }, { assistant: text }]);
    entries[1] = { ...entries[1]!, flags, model: 'm1', usage: { input: 1100, output: 5 } };
    return entries;
  }

  it('reads the stop reason from the last assistant entry\'s flags', () => {
    expect(lastRunEnd(ending({ aborted: true }))?.runEnd.stopReason).toBe('aborted');
    expect(lastRunEnd(ending({ error: true }, 'API Error: boom'))?.runEnd).toMatchObject({ stopReason: 'error', errorMessage: 'API Error: boom', model: 'm1', inputTokens: 1100 });
    expect(lastRunEnd(ending(undefined))?.runEnd.stopReason).toBe('stop');
    expect(lastRunEnd(makeEntries([{ user: 'only' }]))).toBeUndefined();
  });

  it('fires on the threshold over the recorded usage and says what it counted', () => {
    const input = makeInput(ending(undefined), { contextWindow: 1200 });
    const trigger = piStrategy.trigger(input, piStrategy.parse({ reserveTokens: 256 }));
    expect(trigger).toMatchObject({ fire: true, rule: 'threshold', numbers: { contextTokens: 1105, usageTokens: 1105, estimatedTokens: 0, contextWindow: 1200, reserveTokens: 256, threshold: 944, retry: 0 } });
    expect(trigger.detail).toBe('contextTokens 1,105 > 1,200 - 256 (counted with usage of e1 + chars/4 for 0 entries after it)');
  });

  it('without recorded usage, fires on the counter and names it', () => {
    const entries = makeEntries([{ user: 'x'.repeat(4000) }, { assistant: 'reply' }]);
    const trigger = piStrategy.trigger(makeInput(entries, { contextWindow: 1200 }), piStrategy.parse({ reserveTokens: 256 }));
    expect(trigger).toMatchObject({ fire: true, rule: 'threshold', numbers: { contextTokens: 1002, usageTokens: 0, estimatedTokens: 1002 } });
    expect(trigger.detail).toBe('contextTokens 1,002 > 1,200 - 256 (counted with chars/4)');
  });

  it('skips an aborted run and an ordinary error; compacts and retries an overflow', () => {
    const options = piStrategy.parse({ reserveTokens: 256 });
    expect(piStrategy.trigger(makeInput(ending({ aborted: true }), { contextWindow: 1200 }), options).rule).toBe('aborted');
    expect(piStrategy.trigger(makeInput(ending({ error: true }, 'API Error: 500'), { contextWindow: 1200 }), options).rule).toBe('error');
    const overflow = piStrategy.trigger(makeInput(ending({ error: true }, 'API Error: prompt is too long: 250000 tokens > 200000 maximum')), options);
    expect(overflow).toMatchObject({ fire: true, rule: 'overflow', numbers: { retry: 1 } });
  });
});

describe('the strategy trigger and recorded usage (P9, P1)', () => {
  /** A user message, a reply with usage, then `after` more entries of 400 chars (100 chars/4 tokens each). */
  function recorded(usage: { input: number; output: number } | undefined, after: number, flags?: Entry['flags']): Entry[] {
    const specs = [{ user: 'x'.repeat(4000) }, { assistant: 'answer' }, ...Array.from({ length: after }, (_, i) => ({ user: `${i}`.padEnd(400, '.') }))];
    const entries = makeEntries(specs);
    entries[1] = { ...entries[1]!, ...(usage ? { usage } : {}), ...(flags ? { flags } : {}) };
    return entries;
  }

  it('counts the last recorded usage plus the counter for what came after it, and the plan says so', () => {
    const input = makeInput(recorded({ input: 50_000, output: 1000 }, 3), { contextWindow: 100_000 });
    const trigger = piStrategy.trigger(input, piStrategy.parse({}));
    expect(trigger.numbers).toMatchObject({ contextTokens: 51_300, usageTokens: 51_000, estimatedTokens: 300 });
    expect(trigger.detail).toBe('contextTokens 51,300 <= 100,000 - 16,384 (counted with usage of e1 + chars/4 for 3 entries after it): no compaction needed.');
    // The counter alone would say 1,000 + 2 + 300: far from what the provider measured.
    const plan = piStrategy.plan(input, piStrategy.parse({ keepRecentTokens: 100 }));
    expect(plan.notes).toContain('Context counted as pi does: the usage recorded on e1 (50,000 prompt + 1,000 output tokens) plus 300 chars/4 tokens for the 3 entries after it.');
    expect(piStrategy.trigger(makeInput(recorded({ input: 90_000, output: 1000 }, 3), { contextWindow: 100_000 }), piStrategy.parse({})).rule).toBe('threshold');
  });

  it('uses the counter where no reply recorded usage, or the reply has none worth trusting', () => {
    for (const entries of [recorded(undefined, 3), recorded({ input: 90_000, output: 10 }, 3, { aborted: true })]) {
      const trigger = piStrategy.trigger(makeInput(entries, { contextWindow: 100_000 }), piStrategy.parse({}));
      expect(trigger.numbers).toMatchObject({ usageTokens: 0, contextTokens: trigger.numbers.estimatedTokens });
    }
    // After a compaction the source never made, its usage is of its own, larger context: the counter counts.
    const entries = recorded({ input: 90_000, output: 10 }, 3);
    const previous = { strategy: 'pi' as const, summaries: ['earlier'], firstKeptEntryId: entries[1]!.id };
    const trigger = piStrategy.trigger(makeInput(entries, { contextWindow: 100_000, previous }), piStrategy.parse({}));
    expect(trigger).toMatchObject({ rule: 'below-threshold', numbers: { usageTokens: 0 } });
  });

  it('a successful reply whose recorded prompt is above the window is a silent overflow: compact and retry without it', () => {
    const entries = recorded({ input: 150_000, output: 10 }, 0);
    const trigger = piStrategy.trigger(makeInput(entries, { contextWindow: 100_000 }), piStrategy.parse({}));
    expect(trigger).toMatchObject({ fire: true, rule: 'overflow', numbers: { retry: 1 } });
    expect(trigger.detail).toContain("the reply's prompt of 150,000 tokens exceeds the window");
    const longer = [...makeEntries([{ user: 'y'.repeat(4000) }, { assistant: 'first answer' }]), ...entries].map((entry, index) => ({ ...entry, id: `e${index}`, index }));
    const plan = piStrategy.plan(makeInput(longer, { contextWindow: 100_000 }), piStrategy.parse({ keepRecentTokens: 100 }));
    expect(plan.fates).toEqual(['summarize', 'summarize', 'keep', 'drop']);
    // Within the window it is an ordinary reply.
    expect(piStrategy.trigger(makeInput(recorded({ input: 90_000, output: 10 }, 0), { contextWindow: 100_000 }), piStrategy.parse({})).rule).not.toBe('overflow');
  });
});
