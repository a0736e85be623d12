import { describe, expect, it } from 'vitest';
import { makeEntries, makeInput } from '../../compaction/testing.ts';
import { getEstimator, type TokenCounter } from '../../tokens/counters.ts';
import { currentContextTokens } from './boundary.ts';

describe('currentContextTokens', () => {
  it('counts the previous summary once while it stays the same, and again when it changes', () => {
    const base = getEstimator('chars4');
    const counted: string[] = [];
    const counter: TokenCounter = { ...base, count: (text) => (counted.push(text), base.count(text)) };
    const input = makeInput(makeEntries([{ user: 'Fix the parser in src/a.ts.' }, { assistant: 'Done.' }]), { counter });
    counted.length = 0;
    const summary = 'The user asked to fix the parser. '.repeat(50);
    const boundary = { start: 0, readFiles: [], modifiedFiles: [], notes: [] };
    const expected = input.tokens.range(0, 1) + base.count(summary);
    // A fresh string with the same text, as each trigger check joins the summaries again.
    expect(currentContextTokens(input, { ...boundary, previousSummary: summary })).toBe(expected);
    expect(currentContextTokens(input, { ...boundary, previousSummary: summary.slice(0, -1) + ' ' })).toBe(expected);
    expect(counted).toHaveLength(1);
    expect(currentContextTokens(input, { ...boundary, previousSummary: `${summary}More.` })).toBe(input.tokens.range(0, 1) + base.count(`${summary}More.`));
    expect(counted).toHaveLength(2);
  });
});
