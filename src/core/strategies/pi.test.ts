import { describe, expect, it } from 'vitest';
import { OptionError } from '../compaction/options.ts';
import { codingTurn as turn, linkEntries, makeEntries, makeInput, type Spec } from '../compaction/testing.ts';
import type { CompactionInput, Plan } from '../compaction/types.ts';
import type { Entry } from '../journal/entry.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import { compactionEntry, piStrategy } from './pi.ts';
import { stripFileSections } from './pi/file-lists.ts';
import { HISTORY_TASK, NO_EARLIER_HISTORY, SPLIT_TURN_SEPARATOR, TURN_PREFIX_TASK } from './pi/plan.ts';

const opts = (raw: Record<string, unknown> = {}) => piStrategy.parse(raw);
/** Text of about n chars/4 tokens. */
const tok = (n: number, word = 'x') => word.repeat(Math.max(1, Math.ceil((4 * n) / word.length))).slice(0, 4 * n);

function run(input: CompactionInput, raw: Record<string, unknown> = {}, texts: Record<string, string> = {}) {
  const options = opts(raw);
  const plan = piStrategy.plan(input, options);
  const summaries = new Map(plan.summaries.map((task) => [task.id, texts[task.id] ?? `S(${task.id})`]));
  return { plan, context: piStrategy.assemble(input, plan, summaries, options), options };
}

describe('options', () => {
  it('has pi\'s names and defaults', () => {
    expect(opts()).toEqual({ enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000, customInstructions: '', tokenCount: 'counter' });
    expect(piStrategy.options.map((spec) => spec.name)).toEqual(['enabled', 'reserveTokens', 'keepRecentTokens', 'customInstructions', 'tokenCount']);
    for (const spec of piStrategy.options) expect(spec.description.length).toBeGreaterThan(10);
  });

  it('coerces UI and CLI strings', () => {
    expect(opts({ enabled: 'false', reserveTokens: '8192', keepRecentTokens: '30_000' })).toMatchObject({ enabled: false, reserveTokens: 8192, keepRecentTokens: 30_000 });
  });

  it('refuses values out of range with the name and the range', () => {
    expect(() => opts({ keepRecentTokens: -1 })).toThrow(OptionError);
    expect(() => opts({ keepRecentTokens: -1 })).toThrow('Option keepRecentTokens must be a whole number from 0 to 10000000 (tokens); got -1.');
    expect(() => opts({ reserveTokens: 100 })).toThrow('Option reserveTokens must be a whole number from 256 to 1000000 (tokens); got 100.');
    expect(() => opts({ reserveTokens: 1.5 })).toThrow(/reserveTokens/);
    expect(() => opts({ enabled: 'maybe' })).toThrow('Option enabled must be true or false; got "maybe".');
    expect(() => opts({ keepRecent: 5 })).toThrow('Unknown option "keepRecent"; this strategy takes: enabled, reserveTokens, keepRecentTokens, customInstructions, tokenCount.');
  });
});

describe('plan and assemble: the worked example', () => {
  const counts = [500, 800, 1200, 3000, 5000, 8000, 4000, 2000];
  const entries = makeEntries(counts.map((_, i) => (i % 2 === 0 ? { user: `m${i + 1}` } : { user: `again ${i + 1}` })))
    .map((entry, i) => ({ ...entry, id: `msg${i + 1}`, parentId: i === 0 ? null : `msg${i}` }));
  const input = makeInput(entries, { counts });

  it('summarizes msg1-msg3 and keeps msg4-msg8 (22,000 tokens >= keepRecentTokens 20,000)', () => {
    const { plan } = run(input);
    expect(plan.cut?.index).toBe(3);
    expect(plan.cut?.rule).toContain('reaches keepRecentTokens 20,000 at msg4 (22,000 tokens)');
    expect(plan.fates).toEqual(['summarize', 'summarize', 'summarize', 'keep', 'keep', 'keep', 'keep', 'keep']);
    expect(plan.summaries).toEqual([{ id: HISTORY_TASK, prompt: 'pi-summary', from: 0, to: 2, vars: { focus: '' }, maxTokens: 13_107 }]);
    expect(plan.tokensBefore).toBe(24_500);
    expect(plan.tokensAfterEstimate).toBe(13_107 + 22_000);
    expect(plan.nothingToDo).toBeUndefined();
  });

  it('assembles summary + kept entries and returns the compaction entry {summary, firstKeptEntryId, tokensBefore}', () => {
    const { context } = run(input, {}, { [HISTORY_TASK]: '## Goal\nShip it.' });
    const [summary, ...kept] = context.entries;
    expect(summary).toMatchObject({ role: 'user', origin: 'summary', replaces: { fromId: 'msg1', toId: 'msg3', count: 3 } });
    expect(summary!.entry).toMatchObject({ role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text: '## Goal\nShip it.' }], marker: { source: 'pi.compaction', firstKeptEntryId: 'msg4', tokensBefore: 24_500 } });
    expect(kept.map((item) => [item.entry.id, item.origin])).toEqual(['msg4', 'msg5', 'msg6', 'msg7', 'msg8'].map((id) => [id, 'journal']));
    expect(kept.every((item, i) => item.entry === entries[i + 3])).toBe(true);
    expect(compactionEntry(context)).toEqual({ type: 'compaction', summary: '## Goal\nShip it.', firstKeptEntryId: 'msg4', tokensBefore: 24_500, details: { readFiles: [], modifiedFiles: [] } });
    expect(context.previous).toMatchObject({ strategy: 'pi', summaries: ['## Goal\nShip it.'], firstKeptEntryId: 'msg4' });
    expect(context.summaryApplied).toBe(true);
    expect(context.truncationApplied).toBe(false);
    // Kept journal entries count as the input counts them; the summary is counted.
    expect(context.tokensAfter).toBe(context.entries.reduce((sum, item) => sum + (item.origin === 'journal' ? counts[input.entries.indexOf(item.entry)]! : countEntry(item.entry, input.counter).total), 0));
  });
});

describe('system messages, pins, instructions', () => {
  const entries = linkEntries(makeEntries([{ system: 'You are a coding agent.' }, ...turn(1, 'read', 'a.ts', 4000), ...turn(2, 'read', 'b.ts', 4000)]));

  it('keeps system messages in front of the summary and never summarizes them', () => {
    const { plan, context } = run(makeInput(entries), { keepRecentTokens: 3000 });
    expect(plan.fates[0]).toBe('keep');
    expect(plan.summaries[0]!.from).toBe(1);
    expect(context.entries[0]).toMatchObject({ origin: 'journal', role: 'system' });
    expect(context.entries[1]!.origin).toBe('summary');
    expect(context.entries[1]!.replaces?.fromId).toBe('e1');
  });

  it('notes that pi summarizes pinned entries like the others', () => {
    const { plan } = run(makeInput(entries, { pinned: new Set(['e1']) }), { keepRecentTokens: 3000 });
    expect(plan.fates[1]).toBe('summarize');
    expect(plan.notes.join('\n')).toContain('pi has no pinning: 1 pinned entry is summarized');
  });

  it('passes customInstructions to the summary prompt as additional focus', () => {
    const { plan } = run(makeInput(entries), { keepRecentTokens: 3000, customInstructions: 'the parser' });
    expect(plan.summaries[0]!.vars).toEqual({ focus: '\n\nAdditional focus: the parser' });
  });

  it('names the counter in the notes', () => {
    expect(run(makeInput(entries), { keepRecentTokens: 3000 }).plan.notes.join('\n')).toContain('Context counted with chars/4: no successful reply recorded its usage.');
  });
});

describe('nothing to do', () => {
  it('says a branch is too short, with the numbers and the counter', () => {
    const input = makeInput(makeEntries([{ user: tok(100) }, { assistant: tok(200) }]));
    const { plan, context } = run(input);
    expect(plan.nothingToDo).toBe('Too short to compact: the 300 tokens in the branch (chars/4) are below keepRecentTokens 20,000, so pi would keep them all.');
    expect(plan.summaries).toEqual([]);
    expect(plan.fates).toEqual(['keep', 'keep']);
    expect(context.summaryApplied).toBe(false);
    expect(context.entries.map((item) => item.entry)).toEqual(input.entries);
    expect(context.notes).toEqual([plan.nothingToDo]);
    expect(compactionEntry(context)).toBeUndefined();
  });

  it('says when the whole span is one entry too large to split', () => {
    const plan = run(makeInput(makeEntries([{ user: tok(30_000) }, { assistant: tok(10) }]))).plan;
    expect(plan.nothingToDo).toMatch(/^Nothing to summarize: keeping keepRecentTokens 20,000 reaches back to e0/);
  });

  it('handles an empty branch', () => {
    expect(run(makeInput([])).plan.nothingToDo).toBe('The branch is empty: nothing to compact.');
  });
});

describe('split turn (P3)', () => {
  // One long turn after a short one: the cut lands on an assistant message inside turn 2.
  const specs: Spec[] = [
    ...turn(1, 'read', 'a.ts', 2000),
    { user: 'turn 2: refactor' },
    { assistant: 'step 1', calls: [{ id: 's1', name: 'read', input: { path: 'b.ts' } }] },
    { tool: tok(8000), callId: 's1' },
    { assistant: 'step 2', calls: [{ id: 's2', name: 'edit', input: { path: 'b.ts' } }] },
    { tool: tok(8000), callId: 's2' },
    { assistant: 'step 3', calls: [{ id: 's3', name: 'write', input: { path: 'c.ts' } }] },
    { tool: tok(8000), callId: 's3' },
    { assistant: 'all done' },
  ];
  const entries = linkEntries(makeEntries(specs));

  it('plans a turn-prefix summary beside the history summary', () => {
    // Newest-first: e11 + e10 (8000) reach 8000 at e10, a tool result; the cut moves back to e9.
    const { plan } = run(makeInput(entries), { keepRecentTokens: 8000 });
    expect(plan.cut?.index).toBe(9);
    expect(plan.summaries.map((task) => [task.id, task.prompt, task.from, task.to, task.maxTokens])).toEqual([
      [HISTORY_TASK, 'pi-summary', 0, 3, 13_107],
      [TURN_PREFIX_TASK, 'pi-turn-prefix', 4, 8, 8192],
    ]);
    expect(plan.notes.join('\n')).toContain('Split turn: e4..e8');
  });

  it('merges the two summaries, history first, then the file lists', () => {
    const { context } = run(makeInput(entries), { keepRecentTokens: 8000 }, { [HISTORY_TASK]: 'HISTORY', [TURN_PREFIX_TASK]: 'PREFIX' });
    const text = context.entries[0]!.entry.blocks[0];
    // b.ts was read then edited in the prefix: modified only. c.ts is written in the kept part: not listed.
    expect(text).toEqual({ type: 'text', text: `HISTORY${SPLIT_TURN_SEPARATOR}PREFIX\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>` });
    expect(context.entries[1]!.entry.id).toBe('e9');
  });

  it('uses a fixed history text when the split turn is all there is', () => {
    const single = linkEntries(makeEntries(specs.slice(4)));
    const { plan, context } = run(makeInput(single), { keepRecentTokens: 8000 }, { [TURN_PREFIX_TASK]: 'PREFIX' });
    expect(plan.summaries.map((task) => task.id)).toEqual([TURN_PREFIX_TASK]);
    expect(context.entries[0]!.entry.blocks[0]).toMatchObject({ text: expect.stringContaining(`${NO_EARLIER_HISTORY}${SPLIT_TURN_SEPARATOR}PREFIX`) as unknown });
  });
});

describe('iterative compaction (P4) and cumulative file lists (P5)', () => {
  // Each turn is 1,513 chars/4 tokens; keepRecentTokens 1,400 keeps exactly the last turn.
  const first = linkEntries(makeEntries([...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), ...turn(3, 'read', 'x.ts')]));
  const second = linkEntries(makeEntries([
    ...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), ...turn(3, 'read', 'x.ts'), ...turn(4, 'read', 'y.ts'),
    ...turn(5, 'write', 'd.ts'), ...turn(6, 'edit', 'a.ts'), ...turn(7, 'read', 'c.ts'), ...turn(8, 'read', 'z.ts'),
  ]));
  const raw = { keepRecentTokens: 1400 };

  it('first run: summary from scratch with the files of the summarized part', () => {
    const { plan, context } = run(makeInput(first), raw, { [HISTORY_TASK]: 'V1' });
    expect(plan.cut?.index).toBe(8);
    expect(plan.summaries[0]!.prompt).toBe('pi-summary');
    expect(compactionEntry(context)?.details).toEqual({ readFiles: ['a.ts'], modifiedFiles: ['b.ts'] });
    expect(compactionEntry(context)?.summary).toBe('V1\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>');
  });

  it('second run: updates the previous summary from the previous boundary on, and carries the file lists', () => {
    const v1 = run(makeInput(first), raw, { [HISTORY_TASK]: 'V1' }).context;
    const input = makeInput(second, { previous: v1.previous });
    const { plan, context } = run(input, raw, { [HISTORY_TASK]: 'V2' });
    expect(plan.cut?.index).toBe(28);
    expect(plan.summaries).toEqual([expect.objectContaining({ id: HISTORY_TASK, prompt: 'pi-update-summary', from: 8, to: 27, previousSummary: compactionEntry(v1)!.summary })]);
    // Entries before the previous boundary are represented by the previous summary, which is updated.
    expect(plan.fates.slice(0, 28).every((fate) => fate === 'summarize')).toBe(true);
    // tokensBefore is the context the model saw: the previous summary and entries from e8 on.
    expect(plan.tokensBefore).toBe(input.tokens.range(8, second.length - 1) + input.counter.count(compactionEntry(v1)!.summary));
    // a.ts was only read in run 1 and is edited now: it moves to modified. x.ts, y.ts, c.ts were read.
    expect(compactionEntry(context)?.details).toEqual({ readFiles: ['c.ts', 'x.ts', 'y.ts'], modifiedFiles: ['a.ts', 'b.ts', 'd.ts'] });
    expect(context.entries[0]!.replaces).toEqual({ fromId: 'e0', toId: 'e27', count: 28 });
    expect(context.entries.slice(1).map((item) => item.entry.id)).toEqual(second.slice(28).map((entry) => entry.id));
  });

  it('reuses the previous summary when only the current turn is new', () => {
    const head: Spec[] = [...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), { user: 'long turn' }];
    // The first run kept only the new user message (e8): the boundary is the start of the long turn.
    const v1 = run(makeInput(linkEntries(makeEntries(head))), { keepRecentTokens: 1 }, { [HISTORY_TASK]: 'V1' }).context;
    expect(v1.previous.firstKeptEntryId).toBe('e8');
    const more = linkEntries(makeEntries([
      ...head,
      { assistant: 'a', calls: [{ id: 'l1', name: 'read', input: { path: 'q.ts' } }] },
      { tool: tok(5000), callId: 'l1' },
      { assistant: 'b', calls: [{ id: 'l2', name: 'read', input: { path: 'r.ts' } }] },
      { tool: tok(5000), callId: 'l2' },
    ]));
    const { plan, context } = run(makeInput(more, { previous: v1.previous }), { keepRecentTokens: 4000 }, { [TURN_PREFIX_TASK]: 'PREFIX' });
    expect(plan.cut?.index).toBe(11);
    expect(plan.summaries.map((task) => [task.id, task.from, task.to])).toEqual([[TURN_PREFIX_TASK, 8, 10]]);
    expect(plan.notes.join('\n')).toContain('the previous summary is kept as the history part');
    expect(compactionEntry(context)!.summary).toBe(`V1${SPLIT_TURN_SEPARATOR}PREFIX\n\n<read-files>\na.ts\nq.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>`);
  });

  it('ignores a previous compaction whose first kept entry is not on this branch', () => {
    const input = makeInput(first, { previous: { strategy: 'pi', summaries: ['old'], firstKeptEntryId: 'elsewhere' } });
    const { plan } = run(input, raw);
    expect(plan.summaries[0]!.prompt).toBe('pi-summary');
    expect(plan.notes[0]).toContain('not on this branch');
  });
});

describe('stripFileSections', () => {
  it('removes the trailing file sections only', () => {
    expect(stripFileSections('S\n\n<read-files>\na\n</read-files>\n\n<modified-files>\nb\n</modified-files>')).toBe('S');
    expect(stripFileSections('S\n\n<modified-files>\nb\n</modified-files>')).toBe('S');
    expect(stripFileSections('S\n\n<read-files>\na\n</read-files>')).toBe('S');
    expect(stripFileSections('S <read-files> mentioned')).toBe('S <read-files> mentioned');
  });
});

describe('context overflow', () => {
  it('leaves the overflowing error reply out and flags the retry', () => {
    const entries = linkEntries(makeEntries([...turn(1, 'read', 'a.ts', 4000), ...turn(2, 'read', 'b.ts', 4000), { user: 'more' }, { assistant: 'API Error: prompt is too long: 210000 tokens > 200000 maximum' }]));
    entries[entries.length - 1] = { ...entries[entries.length - 1]!, flags: { error: true, synthetic: true } };
    const { plan, context } = run(makeInput(entries), { keepRecentTokens: 3000 });
    expect(plan.trigger).toMatchObject({ fire: true, rule: 'overflow', numbers: { retry: 1 } });
    expect(plan.fates.at(-1)).toBe('drop');
    expect(context.entries.some((item) => item.entry.id === entries.at(-1)!.id)).toBe(false);
    expect(plan.notes.join('\n')).toContain('is left out of the context; the run is retried');
  });
});

describe('determinism', () => {
  it('gives the same plan for the same input', () => {
    const entries = linkEntries(makeEntries([...turn(1, 'read', 'a.ts'), ...turn(2, 'edit', 'b.ts'), ...turn(3, 'read', 'c.ts')]));
    const a: Plan = run(makeInput(entries), { keepRecentTokens: 1000 }).plan;
    const b: Plan = run(makeInput(structuredClone(entries) as Entry[]), { keepRecentTokens: 1000 }).plan;
    expect(b).toEqual(a);
  });
});
