import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { OptionError } from '../compaction/options.ts';
import { placeholders } from '../compaction/prompts.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { replaySession } from '../replay/replay.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { isRealUserMessage } from './agent-state.ts';
import { codexStrategy } from './codex.ts';
import { codexApproxTokens, cutToTokens, selectCarried } from './codex/carry.ts';
import { getStrategy, STRATEGY_IDS } from './index.ts';
import { claudeCodeSample, planWithOfflineSummaries } from './test-fixtures.ts';

const prompts = loadPrompts();
const sample = claudeCodeSample;
const planAndAssemble = (input: CompactionInput, raw: Record<string, unknown> = {}) => planWithOfflineSummaries(codexStrategy, input, raw);

describe('codex strategy', () => {
  it('is registered with Codex\'s config.toml keys as aliases and its defaults', () => {
    expect(STRATEGY_IDS).toContain('codex');
    expect(getStrategy('codex')).toBe(codexStrategy);
    expect(codexStrategy.parse({ model_context_window: '272000', model_auto_compact_token_limit: 200_000 })).toEqual({
      modelContextWindow: 272_000, modelAutoCompactTokenLimit: 200_000, userMessageTokenCap: 20_000,
    });
    expect(() => codexStrategy.parse({ model_auto_compact_token_limit: -1 })).toThrow(OptionError);
    expect(codexStrategy.description).toMatch(/compact\.rs at 0100b103/);
    expect(placeholders(prompts['codex-summary']!)).toEqual(['previous_summary', 'conversation']);
  });

  it('fires at 90% of the window by default and at model_auto_compact_token_limit when set, on the real sample', async () => {
    // The Claude Code sample at a 60,000-token window: every call is sent its transcript (o200k)
    // plus 18,094 tokens the transcript does not hold (derived from the recorded usage). Sizes as
    // sent, before any compaction: call 29 43,357; call 30 45,690; call 40 53,713; call 41 54,055.
    // Default limit 90% x 60,000 = 54,000: call 40 (53,713) is under it, call 41 (54,055) reaches it.
    // model_auto_compact_token_limit 45,000: call 29 (43,357) is under it, call 30 (45,690) reaches it.
    const input = await sample(60_000);
    const summarizer = createOfflineSummarizer();
    const byDefault = await replaySession({ input, config: { strategy: 'codex', options: {} }, summarizer, prompts });
    expect(byDefault.unseenPrefix?.tokens).toBe(18_094);
    expect(byDefault.calls[40]!.contextTokens).toBe(53_713);
    expect(byDefault.compactions[0]).toMatchObject({ call: 41, tokensBefore: 54_055 });
    expect(byDefault.compactions[0]!.trigger.numbers).toMatchObject({ limit: 54_000, contextWindow: 60_000 });
    const configured = await replaySession({ input, config: { strategy: 'codex', options: { model_auto_compact_token_limit: 45_000 } }, summarizer, prompts });
    expect(configured.calls[29]!.contextTokens).toBe(43_357);
    expect(configured.compactions[0]).toMatchObject({ call: 30, tokensBefore: 45_690 });
    // model_context_window moves the derived limit: 90% of 50,000 = 45,000, the same call.
    const window = await replaySession({ input, config: { strategy: 'codex', options: { model_context_window: 50_000 } }, summarizer, prompts });
    expect(window.compactions[0]).toMatchObject({ call: 30 });
  }, 60_000);

  it('keeps the summary and the newest user prompts within the cap, nothing else of the old history', async () => {
    const input = await sample(60_000);
    const prefix = { ...input, entries: input.entries.slice(0, 85), tokens: input.tokens.prefixOf(85) };
    const { plan, context } = planAndAssemble(prefix);
    const prompts = prefix.entries.filter(isRealUserMessage);
    expect(prompts.length).toBeGreaterThan(1);
    // Every prompt fits 20,000 tokens here: all are carried, in order, then the summary, last.
    expect(context.entries.map((e) => e.origin)).toEqual([...prompts.map(() => 'journal'), 'summary']);
    expect(context.entries.slice(0, -1).map((e) => e.entry)).toEqual(prompts);
    expect(context.entries.flatMap((e) => e.entry.blocks).some((b) => b.type === 'tool_call' || b.type === 'tool_result')).toBe(false);
    expect(plan.summaries).toHaveLength(1);
    expect(plan.summaries[0]!.indices).toHaveLength(85);
    // A cap of 30 tokens: the newest prompt that crosses it is cut, the older ones are dropped.
    const small = planAndAssemble(prefix, { userMessageTokenCap: 30 });
    const carried = small.context.entries.filter((e) => e.origin !== 'summary');
    const newest = prompts[prompts.length - 1]!;
    expect(codexApproxTokens(carried.map((e) => e.entry.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('')).join(''))).toBeLessThan(60);
    expect(carried.at(-1)!.entry.id).toBe(newest.id);
    expect(small.plan.compressions.length).toBeLessThanOrEqual(1);
    expect(small.context.truncationApplied || carried.length === prompts.length).toBe(true);
  });

  it('a second compaction summarizes the first summary with what came after it', async () => {
    const input = await sample(60_000);
    const first = planAndAssemble({ ...input, entries: input.entries.slice(0, 85), tokens: input.tokens.prefixOf(85) });
    const later = { ...input, entries: input.entries.slice(0, 150), tokens: input.tokens.prefixOf(150), previous: first.context.previous };
    const trigger = codexStrategy.trigger(later, codexStrategy.parse({}));
    // The context after the first compaction plus the 65 entries since, not the whole 150 entries.
    expect(trigger.numbers.contextTokens).toBe(first.context.tokensAfter + input.tokens.range(85, 149));
    const second = planAndAssemble(later);
    expect(second.plan.summaries[0]!.previousSummary).toBe(first.context.previous.summaries[0]);
    expect(second.plan.summaries[0]!.indices!.every((i) => i >= 85 || isRealUserMessage(input.entries[i]!))).toBe(true);
    expect(second.context.entries.filter((e) => e.origin === 'summary')).toHaveLength(1);
  });

  it('nothing new since the last compaction: nothing to do', async () => {
    const input = await sample(60_000);
    const head = { ...input, entries: input.entries.slice(0, 85), tokens: input.tokens.prefixOf(85) };
    const first = planAndAssemble(head);
    const again = planAndAssemble({ ...head, previous: first.context.previous });
    expect(again.plan.nothingToDo).toMatch(/No entries recorded since the last compaction/);
    expect(codexStrategy.nothingToDo!({ ...head, previous: first.context.previous }, codexStrategy.parse({}))).toBe(again.plan.nothingToDo);
    expect(again.context.entries).toEqual(first.context.entries);
  });
});

describe('carrying user messages as Codex does', () => {
  it('estimates bytes / 4, takes the newest first and cuts the one that crosses the cap', () => {
    expect(codexApproxTokens('abcd')).toBe(1);
    expect(codexApproxTokens('abcde')).toBe(2);
    expect(codexApproxTokens('字')).toBe(1);
    const c = (index: number, n: number) => ({ index, text: 'x'.repeat(4 * n), cut: false });
    expect(selectCarried([c(0, 10), c(1, 10), c(2, 10)], 25).map((s) => [s.index, s.tokens, s.truncated])).toEqual([[0, 5, true], [1, 10, false], [2, 10, false]]);
    expect(selectCarried([c(0, 10)], 0)).toEqual([]);
    const cut = cutToTokens('a'.repeat(400) + 'z'.repeat(400), 10);
    expect(cut).toMatch(/^a{20}\n\[… 190 tokens truncated …\]\nz{20}$/);
  });
});
