import { describe, expect, it } from 'vitest';
import { OptionError } from '../compaction/options.ts';
import { placeholders } from '../compaction/prompts.ts';
import { runCompaction } from '../compaction/run.ts';
import { SummarizerError, SummaryTimeoutError, type Summarizer, type SummaryRequest } from '../compaction/summarizer.ts';
import { codingTurn as turn, echoSummarizer, failingSummarizer, hangingSummarizer, linkEntries, makeEntries, makeInput } from '../compaction/testing.ts';
import type { Strategy } from '../compaction/strategy.ts';
import type { CompactionInput } from '../compaction/types.ts';
import { compactionEntry, piHooks, piStrategy, type PiCompactionEntry } from './pi.ts';
import type { PiPreparation } from './pi/hooks.ts';
import { SPLIT_TURN_SEPARATOR } from './pi/plan.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { CancelledError } from '../cancel.ts';

const prompts = loadPrompts();
const strategy = piStrategy as unknown as Strategy;
const tok = (n: number) => 'x'.repeat(4 * n);

/** Three turns of 1,513 tokens; keepRecentTokens 1,400 keeps the last one. */
const plain = () => makeInput(linkEntries(makeEntries([...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), ...turn(3, 'read', 'c.ts')])));
/** A long last turn; keepRecentTokens 3,000 reaches e8 (a result) and cuts at e7 inside the turn: history + turn-prefix tasks. */
const split = () => makeInput(linkEntries(makeEntries([
  ...turn(1, 'read', 'a.ts'),
  { user: 'long turn' },
  { assistant: 's1', calls: [{ id: 'l1', name: 'edit', input: { path: 'r.ts' } }] },
  { tool: tok(3000), callId: 'l1' },
  { assistant: 's2', calls: [{ id: 'l2', name: 'read', input: { path: 'q.ts' } }] },
  { tool: tok(3000), callId: 'l2' },
  { assistant: 'finished' },
])));
const raw = { keepRecentTokens: 1400 };

function frozen(input: CompactionInput): () => void {
  const before = structuredClone(input.entries);
  return () => expect(input.entries).toEqual(before);
}

describe('prompt files', () => {
  it('exist with the placeholders the plan fills', () => {
    expect(placeholders(prompts['pi-summary']!)).toEqual(['conversation', 'focus']);
    expect(placeholders(prompts['pi-update-summary']!)).toEqual(['conversation', 'previous_summary', 'focus']);
    expect(placeholders(prompts['pi-turn-prefix']!)).toEqual(['conversation']);
  });

  it('ask for the structured summary (P10): goal, constraints, progress, key decisions, files, next steps', () => {
    for (const id of ['pi-summary', 'pi-update-summary']) {
      const headings = [...prompts[id]!.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]);
      expect(headings).toEqual(['Goal', 'Constraints & Preferences', 'Progress', 'Done', 'In Progress', 'Blocked', 'Key Decisions', 'Files', 'Next Steps', 'Critical Context']);
    }
  });
});

describe('runCompaction with piStrategy', () => {
  it('renders pi-summary over the summarized entries and assembles summary + kept', async () => {
    const input = plain();
    const check = frozen(input);
    const summarizer = echoSummarizer();
    const outcome = await runCompaction({ strategy, input, rawOptions: { ...raw, customInstructions: 'tests' }, summarizer, prompts });
    check();
    expect(summarizer.requests).toHaveLength(1);
    const [request] = summarizer.requests;
    expect(request!.promptId).toBe('pi-summary');
    expect(request!.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
    expect(request!.prompt).toMatch(/^<conversation>\n\[user\]: task 1/);
    expect(request!.prompt).toContain('## Key Decisions');
    expect(request!.prompt.trimEnd().endsWith('Additional focus: tests')).toBe(true);
    expect(request!.maxTokens).toBe(13_107);
    expect(outcome.context.entries.map((e) => e.origin)).toEqual(['summary', 'journal', 'journal', 'journal', 'journal']);
    expect(compactionEntry(outcome)).toEqual({
      type: 'compaction',
      summary: 'SUMMARY(pi-summary: 8 entries)\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>',
      firstKeptEntryId: 'e8',
      tokensBefore: input.tokens.total,
      details: { readFiles: ['a.ts'], modifiedFiles: ['b.ts'] },
    });
    expect(outcome.record).toMatchObject({ strategy: 'pi', summary_applied: true, summarized_messages: 8, kept_messages: 4, prompts: ['pi-summary'], counter: 'chars/4' });
  });

  it('renders pi-update-summary with the previous summary on the second run (P4)', async () => {
    const first = await runCompaction({ strategy, input: plain(), rawOptions: raw, summarizer: echoSummarizer(), prompts });
    const grown = makeInput(linkEntries(makeEntries([...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), ...turn(3, 'read', 'c.ts'), ...turn(4, 'read', 'd.ts')])), { previous: first.context.previous });
    const summarizer = echoSummarizer();
    const second = await runCompaction({ strategy, input: grown, rawOptions: raw, summarizer, prompts });
    const [request] = summarizer.requests;
    expect(request!.promptId).toBe('pi-update-summary');
    expect(request!.entries.map((e) => e.id)).toEqual(['e8', 'e9', 'e10', 'e11']);
    expect(request!.prompt).toContain(`<previous-summary>\n${compactionEntry(first)!.summary}\n</previous-summary>`);
    expect(compactionEntry(second)?.details).toEqual({ readFiles: ['a.ts', 'c.ts'], modifiedFiles: ['b.ts'] });
    expect(compactionEntry(second)?.firstKeptEntryId).toBe('e12');
  });

  it('asks for the history and the turn prefix in parallel, then merges them (P3)', async () => {
    const pending: SummaryRequest[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const summarizer: Summarizer = {
      id: 'gated',
      label: 'gated',
      async summarize(request) {
        pending.push(request);
        if (pending.length === 2) release();
        await gate;
        return { text: request.promptId.toUpperCase(), model: 'gated' };
      },
    };
    const outcome = await runCompaction({ strategy, input: split(), rawOptions: { keepRecentTokens: 3000 }, summarizer, prompts });
    expect(pending.map((r) => [r.promptId, r.maxTokens])).toEqual([['pi-summary', 13_107], ['pi-turn-prefix', 8192]]);
    expect(pending[1]!.prompt).toContain('FIRST PART of one turn');
    expect(compactionEntry(outcome)!.summary).toBe(`PI-SUMMARY${SPLIT_TURN_SEPARATOR}PI-TURN-PREFIX\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nr.ts\n</modified-files>`);
    expect(compactionEntry(outcome)!.firstKeptEntryId).toBe('e7');
  });
});

describe('hooks (P8)', () => {
  it('before-compact can supply the summary: no summarizer call, file lists still appended, used once in a split turn', async () => {
    const input = split();
    const summarizer = echoSummarizer();
    let seen: PiPreparation | undefined;
    let after: PiCompactionEntry | undefined;
    const hooks = piHooks(input, {
      beforeCompact(prep) {
        seen = prep;
        return { summary: 'CUSTOM' };
      },
      afterCompact(entry) {
        after = entry;
      },
    });
    const outcome = await runCompaction({ strategy, input, rawOptions: { keepRecentTokens: 3000 }, summarizer, prompts, hooks });
    expect(summarizer.requests).toHaveLength(0);
    expect(seen).toMatchObject({ firstKeptEntryId: 'e7', isSplitTurn: true, readFiles: ['a.ts'], modifiedFiles: ['r.ts'] });
    expect(seen!.entriesToSummarize.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(seen!.turnPrefixEntries.map((e) => e.id)).toEqual(['e4', 'e5', 'e6']);
    expect(compactionEntry(outcome)!.summary).toBe('CUSTOM\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nr.ts\n</modified-files>');
    expect(after).toEqual(compactionEntry(outcome));
    expect(outcome.record.summarizer).toBe('hook');
  });

  it('before-compact can cancel: the run rejects and nothing changes', async () => {
    const input = plain();
    const check = frozen(input);
    const summarizer = echoSummarizer();
    let afterCalled = false;
    const hooks = piHooks(input, { beforeCompact: () => ({ cancel: true }), afterCompact: () => (afterCalled = true) });
    await expect(runCompaction({ strategy, input, rawOptions: raw, summarizer, prompts, hooks })).rejects.toBeInstanceOf(CancelledError);
    expect(summarizer.requests).toHaveLength(0);
    expect(afterCalled).toBe(false);
    check();
  });

  it('works with the orchestrator\'s own hooks too', async () => {
    const input = plain();
    const outcomes: unknown[] = [];
    const outcome = await runCompaction({
      strategy, input, rawOptions: raw, summarizer: echoSummarizer(), prompts,
      hooks: { beforeCompact: (plan) => ({ summary: `custom for ${plan.summaries.length} task` }), afterCompact: (o) => outcomes.push(o) },
    });
    expect(compactionEntry(outcome)!.summary.startsWith('custom for 1 task\n\n<read-files>')).toBe(true);
    expect(outcomes).toEqual([outcome]);
  });

  it('calls neither hook when there is nothing to compact', async () => {
    const input = makeInput(makeEntries([{ user: 'hi' }, { assistant: 'hello' }]));
    let called = 0;
    const outcome = await runCompaction({ strategy, input, summarizer: echoSummarizer(), prompts, hooks: piHooks(input, { beforeCompact: () => void called++, afterCompact: () => void called++ }) });
    expect(called).toBe(0);
    expect(outcome.plan.nothingToDo).toMatch(/^Too short to compact/);
    expect(outcome.context.summaryApplied).toBe(false);
  });
});

describe('failures leave everything as it was (pi has no fallback)', () => {
  it('rejects with the summarizer\'s error', async () => {
    const input = split();
    const check = frozen(input);
    const error = new SummarizerError('Rate limited (429): wait a minute and try again.');
    await expect(runCompaction({ strategy, input, rawOptions: { keepRecentTokens: 3000 }, summarizer: failingSummarizer(error), prompts })).rejects.toBe(error);
    check();
  });

  it('rejects with SummaryTimeoutError when the summary takes too long', async () => {
    const input = plain();
    const check = frozen(input);
    await expect(runCompaction({ strategy, input, rawOptions: raw, summarizer: hangingSummarizer(), prompts, timeoutMs: 20 })).rejects.toBeInstanceOf(SummaryTimeoutError);
    check();
  });

  it('rejects with CancelledError when the user cancels', async () => {
    const input = plain();
    const check = frozen(input);
    const controller = new AbortController();
    const running = runCompaction({ strategy, input, rawOptions: raw, summarizer: hangingSummarizer(), prompts, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    check();
  });

  it('refuses an option out of range before doing anything', async () => {
    const summarizer = echoSummarizer();
    await expect(runCompaction({ strategy, input: plain(), rawOptions: { keepRecentTokens: -5 }, summarizer, prompts })).rejects.toThrow(OptionError);
    await expect(runCompaction({ strategy, input: plain(), rawOptions: { reserveTokens: 10 }, summarizer, prompts })).rejects.toThrow('Option reserveTokens must be a whole number from 256 to 1000000 (tokens); got 10.');
    expect(summarizer.requests).toHaveLength(0);
  });
});
