import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { OptionError } from '../compaction/options.ts';
import { placeholders } from '../compaction/prompts.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { replaySession } from '../replay/replay.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { isRealUserMessage } from './agent-state.ts';
import { getStrategy, STRATEGY_IDS } from './index.ts';
import { claudeCodeSample, planWithOfflineSummaries } from './test-fixtures.ts';
import { opencodeLimits, opencodeStrategy } from './opencode.ts';
import { PRUNED_OUTPUT } from './opencode/prune.ts';

const prompts = loadPrompts();
const sample = claudeCodeSample;
const planAndAssemble = (input: CompactionInput, raw: Record<string, unknown> = {}) => planWithOfflineSummaries(opencodeStrategy, input, raw);

describe('opencode strategy', () => {
  it('is registered with compaction.* as options and opencode\'s defaults', () => {
    expect(STRATEGY_IDS).toContain('opencode');
    expect(getStrategy('opencode')).toBe(opencodeStrategy);
    const options = opencodeStrategy.parse({ tail_turns: '3' });
    expect(options).toMatchObject({ auto: true, reserved: 0, prune: true, contextWindow: 0, maxOutputTokens: 32_000, tailTurns: 3, pruneProtectTokens: 40_000, pruneMinimumTokens: 20_000 });
    expect(opencodeLimits(options, 200_000)).toEqual({ window: 200_000, reserved: 20_000, usable: 148_000, tailBudget: 15_000 });
    expect(opencodeLimits(opencodeStrategy.parse({ reserved: 5_000, maxOutputTokens: 8_000 }), 40_000)).toEqual({ window: 40_000, reserved: 5_000, usable: 27_000, tailBudget: 6_750 });
    expect(() => opencodeStrategy.parse({ reserved: -5 })).toThrow(OptionError);
    expect(placeholders(prompts['opencode-summary']!)).toEqual(['previous_summary', 'conversation']);
  });

  it('overflows where its rule says on the real sample', async () => {
    // The Claude Code sample at a 100,000-token window; sizes as sent (o200k transcript + 18,094
    // not in it) before any compaction: call 28 42,877; call 29 43,357; call 32 46,172; call 33 48,758.
    // Default: 100,000 - 32,000 - min(20,000, 32,000) = 48,000, reached first at call 33.
    // compaction.reserved 25,000: 100,000 - 32,000 - 25,000 = 43,000, reached at call 29.
    const input = await sample(100_000);
    const summarizer = createOfflineSummarizer();
    const first = async (options: Record<string, unknown>) => {
      const result = await replaySession({ input, config: { strategy: 'opencode', options: { prune: false, ...options } }, summarizer, prompts });
      const c = result.compactions[0]!;
      return { call: c.call, before: c.tokensBefore, previous: result.calls[c.call - 1]!.contextTokens, usable: c.trigger.numbers.usable, rule: c.trigger.rule };
    };
    expect(await first({})).toEqual({ call: 33, before: 48_758, previous: 46_172, usable: 48_000, rule: 'overflow' });
    expect(await first({ reserved: 25_000 })).toEqual({ call: 29, before: 43_357, previous: 42_877, usable: 43_000, rule: 'overflow' });
    const off = await replaySession({ input, config: { strategy: 'opencode', options: { prune: false, auto: false } }, summarizer, prompts });
    expect(off.compactions).toHaveLength(0);
  }, 60_000);

  it('summarizes all but the recent tail of user turns, kept verbatim after the summary', async () => {
    const input = await sample(100_000);
    const n = 150;
    const head = { ...input, entries: input.entries.slice(0, n), tokens: input.tokens.prefixOf(n) };
    const { plan, context } = planAndAssemble(head, { preserve_recent_tokens: 6_000 });
    const tail = plan.cut!.index;
    // The tail: whole user turns from the newest back within 6,000 tokens, or the newest turn's end.
    expect(head.tokens.range(tail, n - 1)).toBeLessThanOrEqual(6_000);
    expect(context.entries[0]!.origin).toBe('summary');
    expect(context.entries.slice(1).map((e) => e.entry)).toEqual(head.entries.slice(tail));
    expect(plan.summaries[0]!.indices).toEqual(Array.from({ length: tail }, (_, i) => i));
    // No tail: everything is summarized but the head's last entry, a call whose result is not in the
    // head yet (the run stopped while its tool ran): a call is summarized only with its result.
    const none = planAndAssemble(head, { tail_turns: 0 });
    const waiting = head.entries[n - 1]!.blocks.find((b) => b.type === 'tool_call');
    expect(waiting?.type === 'tool_call' && waiting.resultEntryId).toBe(input.entries[n]!.id);
    expect(none.context.entries.map((e) => e.origin)).toEqual(['summary', 'journal']);
    expect(none.context.entries[1]!.entry).toEqual(head.entries[n - 1]);
    // A second compaction folds the first summary and its tail into the new summary.
    const later = { ...input, entries: input.entries.slice(0, 200), tokens: input.tokens.prefixOf(200), previous: context.previous };
    const second = planAndAssemble(later, { preserve_recent_tokens: 6_000 });
    expect(second.plan.summaries[0]!.previousSummary).toBe(context.previous.summaries[0]);
    expect(second.plan.summaries[0]!.indices![0]).toBe(tail);
  });

  it('prunes old tool outputs at a new turn, never in the last two turns, calls kept', async () => {
    const input = await sample(1_000_000);
    const options = { pruneProtectTokens: 2_000, pruneMinimumTokens: 1_000 };
    const result = await replaySession({ input, config: { strategy: 'opencode', options }, summarizer: createOfflineSummarizer(), prompts });
    const prunes = result.compactions.filter((c) => c.trigger.rule === 'prune');
    expect(prunes.length).toBeGreaterThan(0);
    for (const c of prunes) expect(isRealUserMessage(input.entries[result.calls[c.call]!.entryIndex - 1]!)).toBe(true);
    // On the branch up to the first pruning: the cleared outputs are all older than the second-newest prompt.
    const at = result.calls[prunes[0]!.call]!.entryIndex;
    const head = { ...input, entries: input.entries.slice(0, at), tokens: input.tokens.prefixOf(at) };
    const { plan, context } = planAndAssemble(head, options);
    expect(plan.trigger.rule).toBe('prune');
    const prompts2 = head.entries.map((e, i) => (isRealUserMessage(e) ? i : -1)).filter((i) => i >= 0);
    const protectedFrom = prompts2[prompts2.length - 2]!;
    expect(plan.compressions.length).toBeGreaterThan(0);
    for (const c of plan.compressions) expect(c.index).toBeLessThan(protectedFrom);
    const cleared = context.entries.filter((e) => e.origin === 'compressed');
    for (const e of cleared) expect(e.entry.blocks.some((b) => b.type === 'tool_result' && b.content[0]?.type === 'text' && b.content[0].text === PRUNED_OUTPUT)).toBe(true);
    expect(context.entries).toHaveLength(head.entries.length);
    expect(context.tokensAfter).toBeLessThan(plan.tokensBefore - 1_000);
    // Pruned outputs stay pruned: the next plan starts from them and finds nothing new to free.
    const again = opencodeStrategy.trigger({ ...head, previous: context.previous }, opencodeStrategy.parse(options));
    expect(again.fire).toBe(false);
    expect(again.numbers.contextTokens).toBe(context.tokensAfter);
  }, 60_000);
});
