import { describe, expect, it } from 'vitest';
import type { Entry } from '../journal/entry.ts';
import { OptionError } from '../compaction/options.ts';
import { placeholders, TemplateError } from '../compaction/prompts.ts';
import { runCompaction } from '../compaction/run.ts';
import { type Summarizer } from '../compaction/summarizer.ts';
import {
  echoSummarizer, failingSummarizer, hangingSummarizer, linkEntries, makeEntries, makeInput, type Spec,
} from '../compaction/testing.ts';
import type { PreviousCompaction } from '../compaction/types.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { layeredStrategy, serializeReact } from './layered.ts';
import { ARCHIVE_HEADING, ARCHIVED_SUMMARY_TEMPLATE, frameArchivedSummary, TIMEOUT_MESSAGE } from './layered/archived-summary.ts';
import { loadPrompts } from '../test-fixtures.ts';
import { CancelledError } from '../cancel.ts';

const PROMPTS = loadPrompts();
const S = layeredStrategy;

/** One turn: user question, a Grep call with 20 matching lines, the answer. */
function turnSpecs(k: number): Spec[] {
  const matches = Array.from({ length: 20 }, (_, i) => `src/file${k}.ts:${i + 1}: const value${i} = compute(${i});`).join('\n');
  return [
    { user: `Question ${k}: where is value used?` },
    { assistant: `Searching for turn ${k}.`, calls: [{ id: `c${k}`, name: 'Grep', input: { pattern: 'value' } }] },
    { tool: matches, callId: `c${k}` },
    { assistant: `Answer ${k}: it is in src/file${k}.ts.` },
  ];
}

function transcript(turns: number, system = true): Entry[] {
  const specs: Spec[] = system ? [{ system: 'You are a coding agent.' }] : [];
  for (let k = 0; k < turns; k++) specs.push(...turnSpecs(k));
  return linkEntries(makeEntries(specs));
}

/** Index of turn k's user message in transcript(turns, true). */
const turnAt = (k: number) => 1 + 4 * k;

const run = (entries: Entry[], summarizer: Summarizer = echoSummarizer(), extra: Partial<Parameters<typeof runCompaction>[0]> = {}) =>
  runCompaction({ strategy: S, input: makeInput(entries), summarizer, prompts: PROMPTS, serialize: serializeReact, ...extra });

describe('options', () => {
  it('has the seed defaults', () => {
    expect(S.parse({})).toEqual({
      keepTurns: 10, contextWindow: 200_000, triggerRatio: 0.8, minMessages: 3, summaryMaxTokens: 2000,
      readMaxLines: 500, grepMaxLines: 5, listMaxItems: 10, snippetMaxLines: 20, stderrTailLines: 20,
    });
    expect(S.parse({ context_window: '128_000', keep_turns: '4' })).toMatchObject({ contextWindow: 128_000, keepTurns: 4 });
  });

  it('refuses an out-of-range option with its name and range', () => {
    expect(() => S.parse({ keepTurns: 0 })).toThrow(OptionError);
    expect(() => S.parse({ keepTurns: 0 })).toThrow('Option keepTurns must be a whole number from 1 to 10000 (turns); got 0.');
    expect(() => S.parse({ triggerRatio: '1.5' })).toThrow('Option triggerRatio must be a number from 0.01 to 1; got "1.5".');
    expect(() => S.parse({ keepturns: 3 })).toThrow('Unknown option "keepturns"');
  });
});

describe('plan', () => {
  it('keeps the last 10 whole turns (L5), archives the older ones and cuts at a turn start', () => {
    const entries = transcript(13);
    const plan = S.plan(makeInput(entries), S.parse({}));
    expect(plan.nothingToDo).toBeUndefined();
    expect(plan.cut).toEqual({ index: turnAt(3), rule: 'whole-turn boundary: keep the last 10 of 13 turns (keepTurns)' });
    expect(plan.fates[0]).toBe('keep');
    expect(plan.fates.slice(1, turnAt(3)).every((fate) => fate === 'summarize')).toBe(true);
    expect(plan.summaries).toEqual([{
      id: 'archive', prompt: 'layered-archived-summary', from: 1, to: turnAt(3) - 1, maxTokens: 2000,
      vars: { start_time: new Date(entries[1]!.timestamp!).toISOString(), cutoff_time: new Date(entries[turnAt(3) - 1]!.timestamp!).toISOString() },
    }]);
  });

  it('compresses tool results of kept turns older than the current one (L3); the current turn keeps full observations', () => {
    const entries = transcript(13);
    const plan = S.plan(makeInput(entries), S.parse({}));
    const toolIndices = entries.flatMap((entry, i) => (entry.role === 'tool' && i >= turnAt(3) ? [i] : []));
    expect(plan.compressions.map((c) => c.index)).toEqual(toolIndices.slice(0, -1));
    for (const i of toolIndices.slice(0, -1)) expect(plan.fates[i]).toBe('compress');
    expect(plan.fates[toolIndices[toolIndices.length - 1]!]).toBe('keep');
    const first = plan.compressions[0]!;
    expect(first.tokensAfter).toBeLessThan(first.tokensBefore);
    expect(first.rule).toBe('L3 Grep: summary + first matching lines');
    expect(JSON.parse(first.text)).toMatchObject({ status: 'success', data: { summary: '20 lines of results', truncated: true } });
    expect((JSON.parse(first.text) as { data: { matches: string[] } }).data.matches).toHaveLength(5);
  });

  it('says why there is nothing to do: too few messages, or not more turns than kept', () => {
    const short = S.plan(makeInput(makeEntries([{ user: 'hi' }, { assistant: 'hello' }])), S.parse({ keepTurns: 1 }));
    expect(short.nothingToDo).toBe('Only 2 messages in history; the layered strategy compacts from 3 messages on (minMessages).');
    expect(short.fates).toEqual(['keep', 'keep']);
    expect(short.summaries).toEqual([]);
    const few = S.plan(makeInput(transcript(10)), S.parse({}));
    expect(few.nothingToDo).toBe('Only 10 whole turns in history; the last 10 turns are always kept (keepTurns), so there is nothing older to archive.');
    expect(few.compressions).toEqual([]);
    expect(few.cut).toBeUndefined();
  });

  it('reports the trigger with its numbers and plans on request when it has not fired', () => {
    const plan = S.plan(makeInput(transcript(3)), S.parse({ keepTurns: 1 }));
    expect(plan.trigger.fire).toBe(false);
    expect(plan.notes[0]).toMatch(/^Trigger: last_usage \d+ \(no recorded usage: chars\/4 total\) \+ len\(input\) 32 \/\/ 3 = 10 → estimated_total \d+ < 0\.8 × 200,000 = 160,000; messages 12 >= 3: no compaction\.$/);
    expect(plan.notes).toContain('The trigger has not fired: this plan is what compacting on request would do.');
  });

  it('never cuts inside a tool_use/tool_result pair (L4): a user message inside a pair is not a boundary', () => {
    const entries = linkEntries(makeEntries([
      { user: 'one' }, { assistant: 'a1' },
      { user: 'two' }, { assistant: '', calls: [{ id: 'x', name: 'Bash', input: { command: 'ls' } }] },
      { user: 'three (typed while the tool ran)' },
      { tool: 'out', callId: 'x' }, { assistant: 'a2' },
      { user: 'four' }, { assistant: 'a4' },
    ]));
    const plan = S.plan(makeInput(entries), S.parse({ keepTurns: 2 }));
    // Turn starts usable as cuts: 0, 2, 7 (4 is inside the pair 3 -> 5).
    expect(plan.cut?.index).toBe(2);
  });

  it('keeps journal summaries (L4: appended, never re-compressed) and pinned entries with their pair', () => {
    const entries = transcript(4);
    entries[turnAt(1)] = { ...entries[turnAt(1)]!, role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: 'Earlier compact summary.' }] };
    const input = { ...makeInput(entries), pinned: new Set([entries[turnAt(0) + 2]!.id]) };
    const plan = S.plan(input, S.parse({ keepTurns: 1 }));
    expect(plan.fates[turnAt(1)]).toBe('keep');
    expect(plan.fates[turnAt(0) + 2]).toBe('keep');
    expect(plan.fates[turnAt(0) + 1]).toBe('keep'); // the call of the pinned result
    expect(serializeReact(entries.slice(plan.summaries[0]!.from, plan.summaries[0]!.to + 1))).not.toContain('Earlier compact summary.');
  });
});

describe('assemble through runCompaction', () => {
  it('writes the archive as a SYSTEM entry under the fixed heading (L6), after the system prompt, before the kept turns', async () => {
    const entries = transcript(13);
    const frozen = structuredClone(entries);
    const summarizer = echoSummarizer();
    const { context, record, plan } = await run(entries, summarizer);
    expect(entries).toEqual(frozen);
    expect(context.summaryApplied).toBe(true);
    expect(context.truncationApplied).toBe(false);
    const [system, archive, ...rest] = context.entries;
    expect(system).toMatchObject({ origin: 'journal', role: 'system', entry: entries[0] });
    expect(archive).toMatchObject({ origin: 'summary', role: 'system', replaces: { fromId: 'e1', toId: `e${turnAt(3) - 1}`, count: turnAt(3) - 1 } });
    expect(archive!.entry.role).toBe('system');
    const text = archive!.entry.blocks[0]!.type === 'text' ? archive!.entry.blocks[0]!.text : '';
    expect(text.startsWith(`${ARCHIVE_HEADING}\n*(Contains context from ${plan.summaries[0]!.vars!.start_time} to ${plan.summaries[0]!.vars!.cutoff_time})*`)).toBe(true);
    expect(rest.map((e) => e.entry.id)).toEqual(entries.slice(turnAt(3)).map((e) => e.id));
    const compressed = rest.filter((e) => e.origin === 'compressed');
    expect(compressed).toHaveLength(9);
    for (const item of compressed) expect(item.entry).not.toBe(entries[Number(item.entry.id.slice(1))]);
    expect(context.tokensAfter).toBe(context.entries.reduce((sum, e) => sum + countEntry(e.entry, makeInput(entries).counter).total, 0));
    expect(context.previous).toEqual({ strategy: 'layered', summaries: [text], firstKeptEntryId: `e${turnAt(3)}`, state: { archives: [{ fromId: 'e1', toId: `e${turnAt(3) - 1}`, count: turnAt(3) - 1 }] } });
    expect(record).toMatchObject({ summary_applied: true, truncation_applied: false, summarized_messages: turnAt(3) - 1, compressed_messages: 9 });
    // The summarizer got the ReAct form of the archived turns in the layered prompt.
    const request = summarizer.requests[0]!;
    expect(request.serialized.startsWith('[user] Question 0: where is value used?\n\n[assistant] Thought: Searching for turn 0.\nAction: Grep[')).toBe(true);
    expect(request.serialized).toContain('[tool] {"status":"success"');
    expect(request.prompt).toContain(ARCHIVED_SUMMARY_TEMPLATE);
    expect(request.prompt).toContain(`\`[Start Time]\` is ${plan.summaries[0]!.vars!.start_time}`);
  });

  it('appends earlier archives verbatim, first after the system entries, and archives only what is new', async () => {
    const entries = transcript(14);
    const previous: PreviousCompaction = { strategy: 'layered', summaries: ['OLD ARCHIVE 1', 'OLD ARCHIVE 2'], firstKeptEntryId: `e${turnAt(2)}` };
    const { context, plan } = await runCompaction({ strategy: S, input: makeInput(entries, { previous }), summarizer: echoSummarizer(), prompts: PROMPTS, serialize: serializeReact });
    expect(plan.fates.slice(1, turnAt(2)).every((fate) => fate === 'drop')).toBe(true);
    expect(plan.summaries[0]).toMatchObject({ from: turnAt(2), to: turnAt(4) - 1 });
    const texts = context.entries.map((e) => (e.entry.blocks[0]?.type === 'text' ? e.entry.blocks[0].text : ''));
    expect(context.entries.slice(1, 4).map((e) => e.origin)).toEqual(['summary', 'summary', 'summary']);
    expect(texts.slice(1, 3)).toEqual(['OLD ARCHIVE 1', 'OLD ARCHIVE 2']);
    expect(texts[3]!.startsWith(ARCHIVE_HEADING)).toBe(true);
    expect(context.previous.summaries).toEqual(['OLD ARCHIVE 1', 'OLD ARCHIVE 2', texts[3]]);
    expect(context.previous.firstKeptEntryId).toBe(`e${turnAt(4)}`);
  });

  it('keeps a summary that already carries the heading as it is', () => {
    const text = `${ARCHIVE_HEADING}\n*(Contains context from a to b)*\n\nbody`;
    expect(frameArchivedSummary(`  ${text}\n`, 'x', 'y')).toBe(text);
  });
});

describe('fallback (L10)', () => {
  it('on timeout hard-truncates to the recent turns with the seed message', async () => {
    const entries = transcript(13);
    const frozen = structuredClone(entries);
    const { context, record } = await run(entries, hangingSummarizer(), { timeoutMs: 20 });
    expect(entries).toEqual(frozen);
    expect(context.notes[0]).toBe('Summary generation timed out, keeping recent history only.');
    expect(context.notes[0]).toBe(TIMEOUT_MESSAGE);
    expect(record.notes).toContain(TIMEOUT_MESSAGE);
    expect(context.truncationApplied).toBe(true);
    expect(context.summaryApplied).toBe(false);
    expect(context.entries.some((e) => e.origin === 'summary')).toBe(false);
    expect(context.entries.map((e) => e.entry.id)).toEqual(['e0', ...entries.slice(turnAt(3)).map((e) => e.id)]);
    expect(record).toMatchObject({ truncation_applied: true, summary_applied: false, dropped_messages: turnAt(3) - 1, summarizer_model: 'none' });
    expect(context.previous).toMatchObject({ summaries: [], firstKeptEntryId: `e${turnAt(3)}` });
  });

  it('on a summarizer error hard-truncates too, naming the error', async () => {
    const { context, record } = await run(transcript(12), failingSummarizer(new Error('model unavailable')));
    expect(context.notes[0]).toBe('Summary generation failed (model unavailable), keeping recent history only.');
    expect(record.notes).toContain(context.notes[0]);
    expect(context.truncationApplied).toBe(true);
  });

  it('treats an empty summary as a failure', async () => {
    const empty: Summarizer = { id: 'empty', label: 'Empty', summarize: () => Promise.resolve({ text: '  ', model: 'm' }) };
    const { context } = await run(transcript(12), empty);
    expect(context.truncationApplied).toBe(true);
    expect(context.notes[0]).toMatch(/^Summary generation failed \(The summarizer returned no text/);
  });

  it('does not hide a cancel or a missing prompt file', async () => {
    const controller = new AbortController();
    const pending = run(transcript(12), hangingSummarizer(), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect(run(transcript(12), echoSummarizer(), { prompts: {} })).rejects.toBeInstanceOf(TemplateError);
  });
});

describe('prompt file', () => {
  it('reproduces the fixed template of seed §A5 exactly, emoji included', () => {
    const prompt = PROMPTS['layered-archived-summary']!;
    expect(prompt).toContain(ARCHIVED_SUMMARY_TEMPLATE);
    for (const line of [
      '## 📌 Archived Session Summary',
      '*(Contains context from [Start Time] to [Cutoff Time])*',
      '### 🎯 Objectives & Status',
      '* **Original Goal**: [用户最初想做什么]',
      '### 🏗️ Technical Context (Static)',
      '* **Stack**: [语言, 框架, 版本]',
      '* **Environment**: [OS, Shell,关键环境变量]',
      '### ✅ Completed Milestones (The "Done" Pile)',
      '* [✓] [已完成的任务1] - [简述结果]',
      '### 🧠 Key Insights & Decisions (Persistent Memory)',
      '* **Decisions**: [关键技术选型或放弃的方案]',
      '* **Learnings**: [特殊配置、API 格式或坑]',
      '* **User Preferences**: [用户强调的习惯]',
      '### 📂 File System State (Snapshot)',
      '*(Modified files in this archive segment)*',
      '* `src/utils/auth.ts`: Implemented login logic.',
      '* `package.json`: Added `zod` dependency.',
    ]) expect(ARCHIVED_SUMMARY_TEMPLATE.split('\n')).toContain(line);
    expect(placeholders(prompt).sort()).toEqual(['conversation', 'cutoff_time', 'start_time']);
  });
});
