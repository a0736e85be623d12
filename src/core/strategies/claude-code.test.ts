import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { OptionError } from '../compaction/options.ts';
import { placeholders } from '../compaction/prompts.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { blockText, type ToolCallBlock } from '../journal/entry.ts';
import { replaySession } from '../replay/replay.ts';
import { triggerPoint } from '../replay/trigger-point.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { claudeCodeStrategy, claudeCodeThreshold } from './claude-code.ts';
import { getStrategy, STRATEGY_IDS } from './index.ts';
import { claudeCodeSample, planWithOfflineSummaries } from './test-fixtures.ts';

const prompts = loadPrompts();
const sample = claudeCodeSample;
const planAndAssemble = (input: CompactionInput, raw: Record<string, unknown> = {}) => planWithOfflineSummaries(claudeCodeStrategy, input, raw);

describe('claude-code strategy', () => {
  it('is registered with the environment variables as aliases and its defaults', () => {
    expect(STRATEGY_IDS).toContain('claude-code');
    expect(getStrategy('claude-code')).toBe(claudeCodeStrategy);
    expect(claudeCodeStrategy.parse({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60', CLAUDE_CODE_AUTO_COMPACT_WINDOW: 400_000 })).toMatchObject({
      autoCompact: true, contextWindow: 0, autoCompactPctOverride: 60, autoCompactWindow: 400_000, reserveTokens: 13_000, outputReserveTokens: 20_000,
      restoreFiles: 5, restoreFileTokens: 5_000, restoreTokenBudget: 50_000,
    });
    expect(() => claudeCodeStrategy.parse({ autoCompactPctOverride: 101 })).toThrow(OptionError);
    expect(placeholders(prompts['claude-code-summary']!)).toEqual(['previous_summary', 'conversation']);
  });

  it('sets the threshold at window - 20,000 - 13,000; the percent override only lowers it; the window variable never raises the window', () => {
    const at = (raw: Record<string, unknown>, window = 200_000) => claudeCodeThreshold(claudeCodeStrategy.parse(raw), window).threshold;
    expect(at({})).toBe(167_000);
    expect(at({ autoCompactPctOverride: 50 })).toBe(90_000);
    // 95% of 180,000 = 171,000 > 167,000: capped, the limitation users report.
    expect(at({ autoCompactPctOverride: 95 })).toBe(167_000);
    expect(claudeCodeThreshold(claudeCodeStrategy.parse({ autoCompactPctOverride: 95 }), 200_000).capped).toBe(true);
    expect(at({ autoCompactWindow: 500_000 }, 1_000_000)).toBe(467_000);
    expect(at({ autoCompactWindow: 500_000 })).toBe(167_000);
    expect(triggerPoint({ strategy: 'claude-code', options: {} }, 200_000, 4).tokens).toBe(167_000);
    expect(triggerPoint({ strategy: 'claude-code', options: { autoCompact: false } }, 200_000, 4).tokens).toBeNull();
  });

  it('fires where its rule says on the real sample', async () => {
    // The Claude Code sample at an 80,000-token window; sizes as sent (transcript in o200k plus the
    // 18,094 tokens the recorded usage shows are not in it), before any compaction:
    // call 7 29,820; call 8 30,166; call 16 36,985; call 17 37,012; call 32 46,172; call 33 48,758.
    // Default: 80,000 - 20,000 - 13,000 = 47,000, reached first at call 33.
    // Override 50%: 50% of 60,000 = 30,000, reached at call 8.
    // Override 95%: 57,000, capped at 47,000: the same as the default, call 33.
    // CLAUDE_CODE_AUTO_COMPACT_WINDOW 70,000: 70,000 - 33,000 = 37,000, reached at call 17.
    const input = await sample(80_000);
    const summarizer = createOfflineSummarizer();
    const first = async (options: Record<string, unknown>) => {
      const result = await replaySession({ input, config: { strategy: 'claude-code', options }, summarizer, prompts });
      const compaction = result.compactions[0]!;
      return { call: compaction.call, before: compaction.tokensBefore, previous: result.calls[compaction.call - 1]!.contextTokens, threshold: compaction.trigger.numbers.threshold };
    };
    expect(await first({})).toEqual({ call: 33, before: 48_758, previous: 46_172, threshold: 47_000 });
    expect(await first({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 50 })).toEqual({ call: 8, before: 30_166, previous: 29_820, threshold: 30_000 });
    expect(await first({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 95 })).toEqual({ call: 33, before: 48_758, previous: 46_172, threshold: 47_000 });
    expect(await first({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: 70_000 })).toEqual({ call: 17, before: 37_012, previous: 36_985, threshold: 37_000 });
    const off = await replaySession({ input, config: { strategy: 'claude-code', options: { autoCompact: false } }, summarizer, prompts });
    expect(off.compactions).toHaveLength(0);
  }, 60_000);

  it('replaces the whole conversation with the summary and attaches the newest read files again', async () => {
    const input = await sample(80_000);
    const head = { ...input, entries: input.entries.slice(0, 69), tokens: input.tokens.prefixOf(69) };
    const { plan, context } = planAndAssemble(head);
    expect(plan.summaries[0]!.indices).toHaveLength(69);
    expect(context.entries[0]!.origin).toBe('summary');
    expect(context.entries[0]!.replaces).toMatchObject({ count: 69 });
    expect(context.entries.some((e) => e.origin === 'journal')).toBe(false);
    // The files: the newest Read calls of the history, one per path, newest first, each within 5,000 tokens.
    const reads = head.entries.flatMap((e) => e.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call' && b.name === 'Read'))
      .map((b) => (b.input as { file_path: string }).file_path);
    const newest = [...new Set(reads.reverse())].slice(0, 5);
    const files = context.entries.filter((e) => e.origin === 'synthetic' && blockText(e.entry.blocks[0]!).startsWith('Contents of '));
    expect(newest.length).toBeGreaterThan(0);
    expect(files.map((f) => blockText(f.entry.blocks[0]!).split(',')[0]!.slice('Contents of '.length))).toEqual(newest);
    for (const f of files) expect(head.counter.count(blockText(f.entry.blocks[0]!))).toBeLessThan(5_100);
    // No files to attach: the summary alone.
    const bare = planAndAssemble(head, { restoreFiles: 0 });
    expect(bare.context.entries.filter((e) => blockText(e.entry.blocks[0]!).startsWith('Contents of '))).toHaveLength(0);
  });

  it('a later compaction summarizes the previous summary with what came after; nothing new: nothing to do', async () => {
    const input = await sample(80_000);
    const head = { ...input, entries: input.entries.slice(0, 69), tokens: input.tokens.prefixOf(69) };
    const first = planAndAssemble(head);
    const later = { ...input, entries: input.entries.slice(0, 150), tokens: input.tokens.prefixOf(150), previous: first.context.previous };
    expect(claudeCodeStrategy.trigger(later, claudeCodeStrategy.parse({})).numbers.contextTokens).toBe(first.context.tokensAfter + input.tokens.range(69, 149));
    const second = planAndAssemble(later);
    expect(second.plan.summaries[0]!.previousSummary).toBe(first.context.previous.summaries[0]);
    expect(second.plan.summaries[0]!.indices![0]).toBe(69);
    const again = planAndAssemble({ ...head, previous: first.context.previous });
    expect(again.plan.nothingToDo).toMatch(/No entries recorded since the last compaction/);
    expect(again.context.entries).toEqual(first.context.entries);
  });
});
