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

  it('fires on the threshold over input.tokens and names the counter', () => {
    const input = makeInput(ending(undefined), { contextWindow: 1200 });
    const trigger = piStrategy.trigger(input, piStrategy.parse({ reserveTokens: 256 }));
    expect(trigger).toMatchObject({ fire: true, rule: 'threshold', numbers: { contextTokens: 1002, contextWindow: 1200, reserveTokens: 256, threshold: 944, retry: 0 } });
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

describe('the strategy trigger and recorded usage', () => {
  it('does not take a successful reply whose recorded prompt exceeds a smaller trial window for an overflow', () => {
    const entries = makeEntries([{ user: 'x'.repeat(4000) }, { assistant: 'answer' }]);
    entries[1] = { ...entries[1]!, usage: { input: 150_000, output: 10 } };
    const trigger = piStrategy.trigger(makeInput(entries, { contextWindow: 100_000 }), piStrategy.parse({}));
    expect(trigger.rule).toBe('below-threshold');
  });
});
