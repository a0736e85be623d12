import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { runCompaction } from '../compaction/run.ts';
import { echoSummarizer, linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactionInput, PreviousCompaction } from '../compaction/types.ts';
import type { Entry, ToolResultBlock } from '../journal/entry.ts';
import { getStrategy, STRATEGY_IDS } from './index.ts';
import { HYBRID_TASK_ID, maskingThenSummaryStrategy as strategy } from './masking-then-summary.ts';

const PROMPTS = loadPrompts();

/** System, task, then `n` turns of a call with a 400-character result (100 tokens in chars/4). */
function session(n: number): Entry[] {
  const specs: Spec[] = [{ system: 'You are an agent.' }, { user: 'Fix the bug.' }];
  for (let i = 1; i <= n; i++) {
    specs.push({ assistant: `step ${i}`, calls: [{ id: `c${i}`, name: 'read', input: { path: `f${i}.ts` } }] });
    specs.push({ tool: 'x'.repeat(400), callId: `c${i}` });
  }
  return linkEntries(makeEntries(specs));
}

function plan(input: CompactionInput, raw: Record<string, unknown>) {
  return strategy.plan(input, strategy.parse(raw));
}

function run(entries: Entry[], raw: Record<string, unknown>, extra: { contextWindow?: number; previous?: PreviousCompaction } = {}) {
  const summarizer = echoSummarizer();
  return runCompaction({ strategy, input: makeInput(entries, extra), rawOptions: raw, summarizer, prompts: PROMPTS, clock: () => 0 })
    .then((outcome) => ({ ...outcome, requests: summarizer.requests }));
}

/** Tokens of session(n) in chars/4, and after masking all but the last `keep` results (placeholder: 10 tokens). */
function sizes(n: number, keep: number): { raw: number; masked: number } {
  const raw = makeInput(session(n)).tokens.total;
  return { raw, masked: raw - Math.max(0, n - keep) * 90 };
}

describe('masking-then-summary', () => {
  it('is registered with the paper hybrid defaults', () => {
    expect(STRATEGY_IDS).toContain('masking-then-summary');
    expect(getStrategy('masking-then-summary')).toBe(strategy);
    expect(strategy.parse({})).toEqual({ keepTurns: 10, summaryEveryTurns: 43, summaryTriggerRatio: 0.8, summaryMaxTokens: 2_000, keepTask: true });
  });

  it('only masks while the masked context is under the threshold, even if the raw one is over', async () => {
    const { raw, masked } = sizes(8, 2);
    // Window so that raw > 0.8 x window >= masked.
    const contextWindow = Math.ceil(masked / 0.8) + 1;
    expect(raw).toBeGreaterThan(0.8 * contextWindow);
    const outcome = await run(session(8), { keepTurns: 2, summaryEveryTurns: 0 }, { contextWindow });
    expect(outcome.plan.trigger).toMatchObject({ fire: true, rule: 'masking-window', numbers: { toMask: 6, toSummarize: 0, maskedTokens: masked } });
    expect(outcome.plan.summaries).toEqual([]);
    expect(outcome.requests).toHaveLength(0);
    expect(outcome.context.summaryApplied).toBe(false);
    expect(outcome.plan.fates.filter((f) => f === 'compress')).toHaveLength(6);
    const masks = outcome.context.entries.filter((e) => e.origin === 'compressed').map((e) => (e.entry.blocks[0] as ToolResultBlock).content[0]);
    expect(masks).toEqual(Array.from({ length: 6 }, () => ({ type: 'text', text: '[Old tool output omitted: 100 tokens]' })));
    expect(outcome.context.tokensAfter).toBe(masked);
  });

  it('summarizes the older turns once the masked context is still over the threshold, keeping the last turns and the task', async () => {
    const { masked } = sizes(8, 2);
    const contextWindow = Math.floor(masked / 0.8) - 1;
    const outcome = await run(session(8), { keepTurns: 2, summaryEveryTurns: 0 }, { contextWindow });
    const { plan: p, context, requests } = outcome;
    expect(p.trigger).toMatchObject({ fire: true, rule: 'summary' });
    expect(p.trigger.detail).toMatch(/^masked context [\d,]+ > 0.8 x window [\d,]+ = [\d,]+: summarize the 6 older turns, keep the last 2 verbatim$/);
    expect(p.summaries).toEqual([{ id: HYBRID_TASK_ID, prompt: 'pi-summary', from: 2, to: 13, maxTokens: 2_000, vars: { focus: '' } }]);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.entries.map((e) => e.id)).toEqual(session(8).slice(2, 14).map((e) => e.id));
    // System, task, summary, the last two turns.
    expect(context.entries.map((e) => [e.entry.id, e.origin])).toEqual([
      ['e0', 'journal'], ['e1', 'journal'], ['masking-summary:e13', 'summary'], ['e14', 'journal'], ['e15', 'journal'], ['e16', 'journal'], ['e17', 'journal'],
    ]);
    expect(context.entries[2]!.replaces).toEqual({ fromId: 'e2', toId: 'e13', count: 12 });
    expect(context.summaryApplied).toBe(true);
    expect(context.previous).toEqual({ strategy: 'masking-then-summary', summaries: ['SUMMARY(pi-summary: 12 entries)'], firstKeptEntryId: 'e14', state: { windowFromId: 'e14' } });
    expect(p.cut).toMatchObject({ index: 14 });
  });

  it('summarizes every N turns as the paper\'s hybrid does (N = 43, keeping 10)', () => {
    const at42 = plan(makeInput(session(42)), {});
    expect(at42.trigger).toMatchObject({ fire: true, rule: 'masking-window', numbers: { turns: 42, toSummarize: 0 } });
    const at43 = plan(makeInput(session(43)), {});
    expect(at43.trigger).toMatchObject({ fire: true, rule: 'summary', numbers: { turns: 43 } });
    expect(at43.trigger.detail).toBe('turns since the last summary 43 >= summaryEveryTurns 43: summarize the 33 older turns, keep the last 10 verbatim');
    expect(at43.fates.filter((f) => f === 'summarize')).toHaveLength(66);
  });

  it('continues: updates the previous summary with only the turns that left the window since, and does not re-fire', async () => {
    const all = session(20);
    const prefix = all.slice(0, 2 + 2 * 12);
    const first = await run(prefix, { keepTurns: 2, summaryEveryTurns: 10 });
    expect(first.context.previous.firstKeptEntryId).toBe('e22');

    // Same prefix with its own previous: nothing to do (no infinite re-firing).
    const again = strategy.trigger(makeInput(prefix, { previous: first.context.previous }), strategy.parse({ keepTurns: 2, summaryEveryTurns: 10 }));
    expect(again.fire).toBe(false);

    // Eight more turns: 10 turns since the summary, the 8 older ones are summarized into an update.
    const second = await run(all, { keepTurns: 2, summaryEveryTurns: 10 }, { previous: first.context.previous });
    expect(second.plan.trigger.numbers).toMatchObject({ turns: 10 });
    expect(second.plan.summaries).toEqual([{
      id: HYBRID_TASK_ID, prompt: 'pi-update-summary', from: 22, to: 37, previousSummary: 'SUMMARY(pi-summary: 20 entries)', maxTokens: 2_000, vars: { focus: '' },
    }]);
    // Entries the earlier summary covers are under the summary but in no task.
    expect(second.plan.fates.slice(2, 22).every((f) => f === 'summarize')).toBe(true);
    expect(second.requests[0]!.entries).toHaveLength(16);
    expect(second.context.entries.map((e) => e.entry.id)).toEqual(['e0', 'e1', 'masking-summary:e37', 'e38', 'e39', 'e40', 'e41']);
    expect(second.context.entries[2]!.replaces).toEqual({ fromId: 'e2', toId: 'e37', count: 36 });
    expect(second.context.previous).toMatchObject({ summaries: ['SUMMARY(pi-update-summary: 16 entries)'], firstKeptEntryId: 'e38' });
  });

  it('after a summary, masks again in the verbatim part and keeps the previous summary in place', async () => {
    const all = session(16);
    const prefix = all.slice(0, 2 + 2 * 12);
    const first = await run(prefix, { keepTurns: 2, summaryEveryTurns: 10 });
    const input = makeInput(all, { previous: first.context.previous });
    const p = plan(input, { keepTurns: 2, summaryEveryTurns: 10 });
    // 6 turns since the summary: the 4 oldest of them are masked, no new summary.
    expect(p.trigger).toMatchObject({ fire: true, rule: 'masking-window', numbers: { turns: 6, toMask: 4 } });
    expect(p.summaries).toEqual([]);
    const context = strategy.assemble(input, p, new Map(), strategy.parse({ keepTurns: 2, summaryEveryTurns: 10 }));
    expect(context.entries.map((e) => e.origin).filter((o) => o !== 'journal')).toEqual(['summary', 'compressed', 'compressed', 'compressed', 'compressed']);
    expect(context.entries[2]!.entry.blocks[0]).toEqual({ type: 'text', text: 'SUMMARY(pi-summary: 20 entries)' });
    expect(context.previous).toEqual({ strategy: 'masking-then-summary', summaries: ['SUMMARY(pi-summary: 20 entries)'], firstKeptEntryId: 'e22', state: { windowFromId: 'e30' } });
    // The trigger's context is the replay's: the previous context plus the entries since.
    expect(p.trigger.numbers.contextTokens).toBe(first.context.tokensAfter + input.tokens.range(prefix.length, all.length - 1));
    expect(context.tokensAfter).toBe(p.tokensAfterEstimate);
  });
});
