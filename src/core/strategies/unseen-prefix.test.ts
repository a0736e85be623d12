import { describe, expect, it } from 'vitest';
import { makeInput } from '../compaction/testing.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { agentSession } from '../replay/testing.ts';
import { getStrategy } from './index.ts';

// Six turns of three tool calls; every reply records a usage far above the counted context.
const entries = agentSession(Array.from({ length: 6 }, () => ({ tools: 3, resultChars: 2000 })));
for (const entry of entries) if (entry.role === 'assistant') entry.usage = { input: 900_000, output: 10 };
const UNSEEN = 4_000;

function ask(id: string, input: CompactionInput, raw: Record<string, unknown> = {}) {
  const strategy = getStrategy(id);
  return strategy.trigger(input, strategy.parse(raw));
}

describe('triggers read the context as sent: the transcript plus the unseen prefix', () => {
  const base = makeInput(entries);
  const total = base.tokens.total;
  const given = (unseen: number, contextWindow = base.contextWindow): CompactionInput => ({ ...base, contextWindow, unseenPrefixTokens: unseen });

  it('pi: counts the context plus the prefix, not the usage the source recorded', () => {
    const window = total + 16_384 + UNSEEN / 2;
    // Without a prefix given, pi reads the recorded usage as pi does.
    expect(ask('pi', { ...base, contextWindow: window }).fire).toBe(true);
    expect(ask('pi', given(0, window))).toMatchObject({ fire: false, numbers: { contextTokens: total, usageTokens: 0 } });
    const fired = ask('pi', given(UNSEEN, window));
    expect(fired).toMatchObject({ fire: true, numbers: { contextTokens: total + UNSEEN } });
    expect(fired.detail).toContain('not in the transcript');
  });

  it('layered: last_usage is the context as sent', () => {
    const inputEstimate = ask('layered', given(0)).numbers.inputEstimate!;
    const contextWindow = Math.ceil((total + inputEstimate + UNSEEN / 2) / 0.8);
    expect(ask('layered', given(0), { contextWindow })).toMatchObject({ fire: false, numbers: { lastUsage: total } });
    expect(ask('layered', given(UNSEEN), { contextWindow })).toMatchObject({ fire: true, numbers: { lastUsage: total + UNSEEN } });
    expect(ask('layered', given(UNSEEN), { contextWindow }).detail).toContain(`context as sent: chars/4 + 4,000 not in the transcript`);
  });

  it('tool-result-clearing: the input tokens compared with triggerTokens include the prefix', () => {
    const raw = { triggerTokens: total + UNSEEN / 2, keepToolUses: 2, clearAtLeastTokens: 0 };
    expect(ask('tool-result-clearing', given(0), raw).fire).toBe(false);
    const fired = ask('tool-result-clearing', given(UNSEEN), raw);
    expect(fired).toMatchObject({ fire: true, numbers: { contextTokens: total + UNSEEN, unseenPrefixTokens: UNSEEN } });
    expect(fired.detail).toMatch(/^contextTokens [\d,]+ \(4,000 of them not in the transcript/);
  });

  it('masking-then-summary: the masked context against the window’s share includes the prefix', () => {
    const raw = { keepTurns: 2, summaryEveryTurns: 0 };
    const masked = ask('masking-then-summary', given(0), raw).numbers.maskedTokens!;
    const contextWindow = Math.ceil((masked + UNSEEN / 2) / 0.8);
    expect(ask('masking-then-summary', given(0, contextWindow), raw).rule).not.toBe('summary');
    const fired = ask('masking-then-summary', given(UNSEEN, contextWindow), raw);
    expect(fired).toMatchObject({ fire: true, rule: 'summary', numbers: { maskedTokens: masked + UNSEEN } });
  });
});
