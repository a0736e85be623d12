import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Entry } from '../../journal/entry.ts';
import { makeEntries, makeInput } from '../../compaction/testing.ts';
import { currentUserInput, layeredTrigger } from './trigger.ts';

const SEED = { contextWindow: 200_000, triggerRatio: 0.8, minMessages: 3 };

/** `n` history messages ending with the current user input; the last assistant reports `usage`. */
function history(n: number, userInput: string, usage?: { input: number; output: number }): Entry[] {
  const specs = Array.from({ length: Math.max(0, n - 1) }, (_, i) => (i % 2 === 0 ? { user: `q${i}` } : { assistant: `a${i}` }));
  const entries = makeEntries([...specs, { user: userInput }]);
  const lastAssistant = [...entries].reverse().find((entry) => entry.role === 'assistant');
  if (usage && lastAssistant) lastAssistant.usage = usage;
  return entries;
}

/** Seed 002 §C7, transcribed literally from its Python. */
function seedC7(lastUsage: number, userInput: string, messages: number): boolean {
  const estimatedTotal = lastUsage + Math.floor([...userInput].length / 3);
  return estimatedTotal >= 0.8 * 200_000 && messages >= 3;
}

describe('layeredTrigger (L7, seed §C7)', () => {
  it('fires exactly at 0.8 × 200k: 159,000 + 3,000 // 3 = 160,000', () => {
    const fire = layeredTrigger(makeInput(history(4, 'x'.repeat(3000), { input: 158_500, output: 500 })), SEED);
    expect(fire.fire).toBe(true);
    expect(fire.numbers).toMatchObject({ lastUsage: 159_000, inputChars: 3000, inputEstimate: 1000, estimatedTotal: 160_000, threshold: 160_000, messages: 4 });
    expect(fire.detail).toBe('last_usage 159,000 (usage of e1) + len(input) 3,000 // 3 = 1,000 → estimated_total 160,000 >= 0.8 × 200,000 = 160,000; messages 4 >= 3: compact');

    const below = layeredTrigger(makeInput(history(4, 'x'.repeat(2999), { input: 158_500, output: 500 })), SEED);
    expect(below.fire).toBe(false);
    expect(below.numbers).toMatchObject({ inputEstimate: 999, estimatedTotal: 159_999 });
    expect(below.detail).toContain('estimated_total 159,999 < 0.8 × 200,000 = 160,000');
  });

  it('never fires below the minimum message count', () => {
    const decision = layeredTrigger(makeInput(history(2, 'hi', { input: 500_000, output: 0 })), SEED);
    expect(decision.fire).toBe(false);
    expect(decision.rule).toBe('minMessages');
    expect(decision.detail).toContain('messages 2 < 3');
  });

  it('counts len() in code points, as Python does', () => {
    const decision = layeredTrigger(makeInput(history(4, '😀'.repeat(6), { input: 1, output: 0 })), SEED);
    expect(decision.numbers).toMatchObject({ inputChars: 6, inputEstimate: 2 });
  });

  it('uses the counted total when no usage was recorded, and honours the window and ratio options', () => {
    const entries = history(5, 'y'.repeat(30));
    const input = makeInput(entries);
    const decision = layeredTrigger(input, { contextWindow: 100, triggerRatio: 0.5, minMessages: 3 });
    expect(decision.numbers.lastUsage).toBe(input.tokens.total);
    expect(decision.numbers.threshold).toBe(50);
    expect(decision.detail).toContain('no recorded usage');
  });

  it('without usage, after an earlier archive, counts the kept entries and the archived summaries, not the whole history', () => {
    const entries = history(9, 'y'.repeat(30));
    entries[1]!.blocks = [{ type: 'text', text: 'long archived answer '.repeat(40) }];
    const kept = entries[6]!;
    const input = makeInput(entries, { previous: { strategy: 'layered', summaries: ['Archived: the first turns.'], firstKeptEntryId: kept.id } });
    const decision = layeredTrigger(input, { contextWindow: 100, triggerRatio: 0.5, minMessages: 3 });
    expect(decision.numbers.lastUsage).toBe(input.tokens.range(6, entries.length - 1) + input.counter.count('Archived: the first turns.'));
    expect(decision.numbers.lastUsage).toBeLessThan(input.tokens.total);
    expect(decision.detail).toContain('since the last archive');
  });

  it('the current user input is the last user message the user typed', () => {
    const entries = makeEntries([{ user: 'first' }, { assistant: 'ok' }, { user: 'second question' }, { user: '<system-reminder>x</system-reminder>' }]);
    entries[3]!.flags = { injected: true };
    expect(currentUserInput(entries)).toEqual({ index: 2, text: 'second question' });
  });

  it('agrees with the seed formula on any usage, input and message count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400_000 }), fc.string({ maxLength: 60, unit: 'grapheme' }), fc.integer({ min: 1, max: 8 }), (usage, text, n) => {
        const userInput = text.trim() === '' ? 'q' : text;
        const input = makeInput(history(n, userInput, { input: usage, output: 0 }));
        const expected = seedC7(n >= 2 ? usage : input.tokens.total, userInput, n);
        expect(layeredTrigger(input, SEED).fire).toBe(expected);
      }),
    );
  });
});
