import { describe, expect, it } from 'vitest';
import { importFile, loadPrompts } from '../test-fixtures.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { compareConfigs } from './compare.ts';
import { triggerPoint } from './trigger-point.ts';
import { windowWarnings, type WarningInput } from './window-warnings.ts';

const call = (n: number, overflow: boolean, note?: string) => ({ call: n, overflow, ...(note ? { note } : {}) });
const run = (over: Partial<WarningInput>): WarningInput => ({
  config: { strategy: 'tool-result-clearing' }, options: {}, contextWindow: 50_000,
  trigger: { tokens: 40_000, rule: 'r' }, calls: [call(0, false), call(1, false)], compactions: [], ...over,
});

describe('trigger points against the window', () => {
  it('reads each strategy\'s threshold as context tokens, or says it acts on a count', () => {
    expect(triggerPoint({ strategy: 'tool-result-clearing', options: {} }, 50_000, 4)).toEqual({ tokens: 100_000, rule: 'triggerTokens 100,000' });
    expect(triggerPoint({ strategy: 'pi', options: {} }, 50_000, 4)).toEqual({ tokens: 50_000 - 16_384, rule: 'contextWindow 50,000 - reserveTokens 16,384' });
    expect(triggerPoint({ strategy: 'pi', options: { enabled: 'false' } }, 50_000, 4).tokens).toBeNull();
    // layered's own window follows the replay's unless set.
    expect(triggerPoint({ strategy: 'layered', options: {} }, 50_000, 4).tokens).toBe(40_000);
    expect(triggerPoint({ strategy: 'layered', options: { contextWindow: '200000' } }, 50_000, 4).tokens).toBe(160_000);
    expect(triggerPoint({ strategy: 'budget', options: {} }, 50_000, 4).tokens).toBe(50_000 - 16_384);
    expect(triggerPoint({ strategy: 'masking-then-summary', options: {} }, 50_000, 4).tokens).toBe(40_000);
    expect(triggerPoint({ strategy: 'folding', options: {} }, 50_000, 4).tokens).toBe(40_000);
    const sliding = triggerPoint({ strategy: 'sliding-window', options: {} }, 50_000, 4);
    expect(sliding).toEqual({ tokens: null, rule: 'acts on a count, not on the context\'s size: windowSize 50 iterations' });
  });

  it('augment: characters through the branch\'s characters per token, or tokens when asked', () => {
    const chars = triggerPoint({ strategy: 'augment', options: {} }, 50_000, 4);
    expect(chars).toEqual({ tokens: 12_500, rule: 'triggerOnHistorySizeChars 50,000 chars ≈ 12,500 tokens at this branch\'s 4.0 chars per token' });
    expect(triggerPoint({ strategy: 'augment', options: { sizeUnit: 'tokens' } }, 50_000, 4)).toEqual({ tokens: 50_000, rule: 'triggerOnHistorySizeChars 50,000 (sizeUnit tokens)' });
    expect(triggerPoint({ strategy: 'augment', options: { triggerOnHistorySizeChars: '0', triggerOnHistorySizeCharsWhenCacheExpiring: '0' } }, 50_000, 4).tokens).toBeNull();
  });
});

describe('window warnings', () => {
  it('none for a run that stays inside the window', () => {
    expect(windowWarnings(run({}))).toEqual([]);
  });

  it('trigger-past-window: a trigger at or past the window, with the calls over it', () => {
    const warnings = windowWarnings(run({ trigger: { tokens: 100_000, rule: 'triggerTokens 100,000' }, calls: [call(0, false), call(1, true), call(2, true)] }));
    expect(warnings).toEqual([{ kind: 'trigger-past-window', overflowCalls: 2, message: 'The trigger fires at 100,000 tokens (triggerTokens 100,000), at or past the 50,000-token window: the context is over the window before it can fire; 2 calls over the window.' }]);
    // Exactly at the window: the context is at the window before it can fire.
    expect(windowWarnings(run({ trigger: { tokens: 50_000, rule: 'r' } })).map((w) => w.kind)).toEqual(['trigger-past-window']);
    expect(windowWarnings(run({ trigger: { tokens: 49_999, rule: 'r' } }))).toEqual([]);
  });

  it('keep-past-trigger: pi\'s keepRecentTokens above window minus reserve', () => {
    const pi = (keep: number) => windowWarnings(run({ config: { strategy: 'pi' }, options: { keepRecentTokens: keep, reserveTokens: 16_384 } }));
    expect(pi(33_617)).toEqual([expect.objectContaining({ kind: 'keep-past-trigger', overflowCalls: 0, message: expect.stringContaining('keepRecentTokens 33,617 > contextWindow 50,000 - reserveTokens 16,384 = 33,616') })]);
    expect(pi(33_616)).toEqual([]);
  });

  it('kept-past-window: compactions that left the context over the window', () => {
    const warnings = windowWarnings(run({
      calls: [call(0, false), call(1, true), call(2, true)],
      compactions: [{ call: 0, tokensAfter: 20_000 }, { call: 1, tokensAfter: 153_000 }, { call: 2, tokensAfter: 60_000 }],
    }));
    expect(warnings).toEqual([{ kind: 'kept-past-window', overflowCalls: 2, message: '2 of 3 compactions left the context over the 50,000-token window (up to 153,000 tokens, first before call 2): what the strategy keeps verbatim does not fit; 2 calls over the window.' }]);
  });

  it('overflow: calls over the window that nothing above explains, with the first one\'s reason', () => {
    const warnings = windowWarnings(run({ calls: [call(0, false), call(1, true, '50,449 tokens > window 50,000: the trigger fired (threshold) but the strategy had nothing to compact')] }));
    expect(warnings).toEqual([{ kind: 'overflow', overflowCalls: 1, message: '1 call over the window, the first at call 2: 50,449 tokens > window 50,000: the trigger fired (threshold) but the strategy had nothing to compact' }]);
  });

  it('on the real Claude Code sample at a 50,000 window: tool-result-clearing cannot fire before it, pi and augment stay inside', async () => {
    const result = await importFile('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
    const counter = await getCounter('chars4');
    const { totals } = countEntries(result.entries, counter);
    const output = await compareConfigs({
      journal: result.entries, totals, counter, contextWindow: 50_000, summarizer: createOfflineSummarizer(), prompts: loadPrompts(),
      configs: [{ strategy: 'tool-result-clearing', options: {} }, { strategy: 'pi', options: {} }, { strategy: 'augment', options: {} }],
    });
    const [clearing, pi, augment] = output.results;
    expect(clearing!.trigger).toEqual({ tokens: 100_000, rule: 'triggerTokens 100,000' });
    expect(clearing!.totals.overflowCalls).toBeGreaterThan(0);
    expect(clearing!.warnings).toEqual([expect.objectContaining({ kind: 'trigger-past-window', overflowCalls: clearing!.totals.overflowCalls })]);
    expect(pi!.warnings).toEqual([]);
    expect(augment!.warnings).toEqual([]);
    // chars/4 counts a quarter of the characters: augment's 50,000 characters are about 12,500 of its tokens.
    expect(augment!.trigger!.tokens).toBeGreaterThan(12_000);
    expect(augment!.trigger!.tokens).toBeLessThan(13_000);
  }, 60_000);
});
