import { describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { makeEntries, type Spec } from '../compaction/testing.ts';
import type { Summarizer, SummaryRequest } from '../compaction/summarizer.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { MAX_ENTITIES, MAX_KEYWORDS, TITLE_MAX_CHARS } from './digest.ts';
import {
  blockRequest, MAX_KEY_ACTIONS, ModelReplyError, parseJsonReply, parseModelReply, parseSelfCheck, SUMMARY_MAX_CHARS, withMissing,
} from './model-digest.ts';
import { enrichRun, type ModelDigestCache } from './model-enrich.ts';
import { foldRun } from './run.ts';
import type { FoldedBlock, FoldRun } from './types.ts';
import { CancelledError } from '../cancel.ts';

const prompts = loadPrompts();
const counter = getEstimator('chars4');

function session(n: number): Spec[] {
  const specs: Spec[] = [{ user: 'Please refactor the billing module and keep tests passing.' }];
  for (let i = 0; i < n; i++) {
    const file = `src/file${i}.ts`;
    specs.push({ assistant: `Step ${i}: working on ${file}.`, calls: [{ id: `c${i}`, name: i % 3 === 0 ? 'Edit' : 'Read', input: { file_path: file } }] });
    specs.push({ tool: `${'line of output\n'.repeat(40)}done`, callId: `c${i}` });
  }
  return specs;
}

/** Small distances and chunks so 40 iterations reach L4 with nested L3 and L2 blocks. */
const OPTIONS = { l0Distance: 2, l1Distance: 4, l2Distance: 8, l3Distance: 16, l1Chunk: 2, l2Chunk: 4, l3Chunk: 8, l4Chunk: 16, everyLow: 1, everyMedium: 1, everyHigh: 1 };

function folded(n = 40): { entries: ReturnType<typeof makeEntries>; run: FoldRun } {
  const entries = makeEntries(session(n));
  const run = foldRun(entries, countEntries(entries, counter).totals, OPTIONS, new Map(), counter);
  return { entries, run };
}

function all(blocks: readonly FoldedBlock[]): FoldedBlock[] {
  return blocks.flatMap((block) => [...all(block.children), block]);
}

const GOOD: Record<string, (request: SummaryRequest) => string> = {
  'fold-level-summary': (r) => JSON.stringify({ summary: `Model summary of ${r.vars.span}.`, key_actions: ['edited src/file0.ts'], outcomes: ['tests pass'], keywords: ['billing'], entities: ['src/file0.ts'] }),
  'fold-chapter-index': (r) => JSON.stringify({ title: `Model chapter ${r.vars.span}`, summary: 'Refactored billing.', key_actions: ['split module'], outcomes: ['done'], keywords: ['refactor'], entities: ['billing'] }),
  'fold-phase-synthesis': (r) => `{"line": "Model phase line for ${r.vars.span}."}`,
  'fold-self-check': () => '{"complete": false, "missing": ["the parser still fails on empty input"]}',
};

/** A summarizer that answers from `reply` (default: a good JSON reply per prompt) and records the requests. */
function fake(reply: (request: SummaryRequest, n: number) => string = (r) => GOOD[r.promptId]!(r)): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'fake',
    label: 'Fake',
    requests,
    summarize(request) {
      requests.push(request);
      return Promise.resolve({ text: reply(request, requests.length), model: 'fake-1' });
    },
  };
}

describe('parsing a model reply', () => {
  it('reads JSON in a code fence, after prose, after a think block', () => {
    expect(parseJsonReply('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(parseJsonReply('Sure! Here is the index:\n{"a": "x } y", "b": [1]}\nHope it helps {really}.')).toEqual({ a: 'x } y', b: [1] });
    expect(parseJsonReply('<think>maybe {"a": 0}</think>{"a": 2}')).toEqual({ a: 2 });
  });

  it('says what is wrong with a reply that is not a JSON object', () => {
    expect(() => parseJsonReply('I could not summarize this.')).toThrow('reply was not JSON (no object in it)');
    expect(() => parseJsonReply('')).toThrow('reply was empty');
    expect(() => parseJsonReply('{"summary": "cut off')).toThrow(/^reply was not JSON \(/);
    expect(() => parseJsonReply('{summary: nope}')).toThrow(ModelReplyError);
  });

  it('validates types and fields by level', () => {
    expect(() => parseModelReply(2, '{"key_actions": []}')).toThrow('"summary" is missing');
    expect(() => parseModelReply(3, '{"summary": "s"}')).toThrow('"title" is missing');
    expect(() => parseModelReply(2, '{"summary": 42}')).toThrow('"summary" is a number, expected a string');
    expect(() => parseModelReply(2, '{"summary": "  "}')).toThrow('"summary" is empty');
    expect(() => parseModelReply(2, '{"summary": "s", "keywords": "a, b"}')).toThrow('"keywords" is a string, expected a list of strings');
    expect(() => parseModelReply(2, '{"summary": "s", "entities": ["a", {"x": 1}]}')).toThrow('"entities[1]" is an object, expected a string');
    expect(() => parseModelReply(4, '{"summary": "s"}')).toThrow('"line" is missing');
    // Missing lists are empty, nulls too.
    expect(parseModelReply(2, '{"summary": "s", "outcomes": null}')).toEqual({ summary: 's', keyActions: [], outcomes: [], keywords: [], entities: [] });
  });

  it('clips over-long values and caps the lists', () => {
    const long = 'word '.repeat(400);
    const many = Array.from({ length: 40 }, (_, i) => `item ${i}`);
    const fields = parseModelReply(3, JSON.stringify({ title: long, summary: long, key_actions: many, outcomes: many, keywords: [...many, 'Item 0'], entities: many }));
    expect(fields.title!.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(fields.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS[3]);
    expect(fields.keyActions).toHaveLength(MAX_KEY_ACTIONS);
    expect(fields.outcomes).toHaveLength(3);
    expect(fields.keywords).toHaveLength(MAX_KEYWORDS);
    expect(fields.entities).toHaveLength(MAX_ENTITIES);
    expect(parseModelReply(4, JSON.stringify({ line: long })).summary.length).toBeLessThanOrEqual(160);
  });

  it('reads a self-check', () => {
    expect(parseSelfCheck('{"complete": true, "missing": []}')).toEqual({ complete: true, missing: [] });
    expect(() => parseSelfCheck('{"missing": []}')).toThrow('"complete" is missing');
    expect(() => parseSelfCheck('{"complete": "no"}')).toThrow('"complete" is a string, expected true or false');
  });

  it('adds missing facts to a summary, never removes any', () => {
    const digest = { title: 't', content: 'Did X.', outcome: 'o', keywords: [], entities: [], stateChanges: [], keyActions: ['a'], errors: 0, changedFiles: 0 };
    const { digest: checked, added } = withMissing(digest, ['did x', 'the build is red.']);
    expect(added).toBe(1);
    expect(checked.content).toBe('Did X. Also: the build is red.');
    expect(checked.keyActions).toEqual(['a', 'the build is red.']);
    expect(withMissing(digest, []).digest).toBe(digest);
  });
});

describe('the request for a block', () => {
  it('renders the level prompt with the span, the wrapped source and the limits', () => {
    const entries = makeEntries(session(3));
    const request = blockRequest({ id: 'fold_iter0_to_2', level: 2, from: 0, to: 2, entries }, prompts, new AbortController().signal);
    expect(request.promptId).toBe('fold-level-summary');
    expect(request.prompt).toContain('iterations 0-2');
    expect(request.prompt).toMatch(/<conversation>\n\[user\]: Please refactor/);
    expect(request.prompt).not.toMatch(/\{\{/);
    const chapter = blockRequest({ id: 'b', level: 3, from: 0, to: 9, entries, childTexts: ['Summary A', 'Summary B'] }, prompts, new AbortController().signal, { retryNote: '"title" is missing' });
    expect(chapter.prompt).toContain('the summaries of its 2 parts');
    expect(chapter.prompt).toContain('<summaries>\nSummary A\n\nSummary B\n</summaries>');
    expect(chapter.prompt).toContain('Your previous reply could not be used: "title" is missing');
  });

  it('clips a long source to the character budget, both ends kept', () => {
    const entries = makeEntries(session(200));
    const request = blockRequest({ id: 'b', level: 2, from: 0, to: 199, entries }, prompts, new AbortController().signal, { sourceChars: 5000 });
    expect(request.serialized.length).toBeLessThanOrEqual(5000);
    expect(request.serialized).toContain('characters omitted');
    expect(request.serialized).toContain('Step 199');
  });
});

describe('enrichRun', () => {
  it('gives every block at L2-L4 the model digest, nested blocks first, and recomputes texts and tokens', async () => {
    const { entries, run } = folded();
    const before = structuredClone(run.blocks);
    const levels = all(run.blocks).filter((b) => b.level >= 2);
    expect(levels.some((b) => b.level === 3 && b.children.length > 0)).toBe(true);
    expect(levels.some((b) => b.level === 4 && b.children.length === 0)).toBe(true);
    const summarizer = fake();
    const progress: Array<[number, number]> = [];
    const result = await enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS, onProgress: (p) => progress.push([p.done, p.total]) });
    expect(result.made).toBe(levels.length);
    expect(result.reused).toBe(0);
    expect(result.notes).toEqual([]);
    expect(progress.at(-1)).toEqual([levels.length, levels.length]);
    expect(run.blocks).toEqual(before);
    // Oldest first, children before their parent.
    expect(summarizer.requests.map((r) => r.taskId)).toEqual(levels.map((b) => `${b.id}|L${b.level}`));
    for (const block of all(result.run.blocks)) {
      if (block.level === 2) expect(block.summary.content).toMatch(/^Model summary of/);
      if (block.level === 3) expect(block.summary.title).toMatch(/^Model chapter/);
      if (block.level === 4) expect(block.text).toMatch(/Model phase line/);
    }
    // A chapter with parts is summarized from its parts' model summaries.
    const chapter = summarizer.requests.find((r) => r.promptId === 'fold-chapter-index' && r.prompt.includes('<summaries>'));
    expect(chapter?.prompt).toContain('Model summary of');
    // Tokens: the difference of the top-level blocks moves tokensAfter and the long-term zone.
    let delta = 0;
    for (const [i, block] of result.run.blocks.entries()) {
      const old = run.blocks[i]!;
      if (block.level >= 2) expect(block.tokens.folded).toBe(old.tokens.folded - counter.count(old.text) + counter.count(block.text));
      delta += block.tokens.folded - old.tokens.folded;
    }
    expect(result.run.tokensAfter).toBe(run.tokensAfter + delta);
    const long = (r: FoldRun) => r.partitions.find((z) => z.zone === 'long-term')!.tokens;
    expect(long(result.run)).toBe(long(run) + delta);
  });

  it('retries a malformed reply once and uses the second', async () => {
    const { entries, run } = folded();
    const summarizer = fake((r, n) => (n === 1 ? 'Here you go: summary is fine' : GOOD[r.promptId]!(r)));
    const result = await enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS });
    expect(result.notes).toEqual([]);
    expect(summarizer.requests[1]?.prompt).toContain('Your previous reply could not be used: reply was not JSON (no object in it)');
    expect(summarizer.requests[1]?.taskId).toBe(summarizer.requests[0]?.taskId);
    expect(result.calls).toBe(result.made + 1);
  });

  it('keeps the offline digest with a note when the retry is malformed too', async () => {
    const { entries, run } = folded();
    const summarizer = fake((r, n) => (n <= 2 ? '{"summary": "unterminated' : GOOD[r.promptId]!(r)));
    const result = await enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS });
    const first = all(run.blocks).find((b) => b.level >= 2)!;
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toMatch(new RegExp(`^${first.id}: reply was not JSON \\(.+\\) \\(also after a retry\\); used the offline summary\\.$`));
    const after = all(result.run.blocks).find((b) => b.id === first.id && b.level === first.level)!;
    expect(after.summary).toEqual(first.summary);
    expect(after.text).toBe(first.text);
  });

  it('a failing model stops further calls: the rest stay extracted, with one note', async () => {
    const { entries, run } = folded();
    const summarizer: Summarizer = { id: 'down', label: 'Down', summarize: () => Promise.reject(new Error('HTTP 503 from the provider')) };
    const result = await enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS });
    expect(result.calls).toBe(1);
    expect(result.notes).toEqual([expect.stringContaining('the model failed (HTTP 503 from the provider)')]);
    expect(result.run.blocks).toEqual(run.blocks);
    expect(result.run.tokensAfter).toBe(run.tokensAfter);
  });

  it('self-check (F10) adds what the summary misses', async () => {
    const { entries, run } = folded();
    const summarizer = fake();
    const result = await enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS, selfCheck: true });
    const checked = all(result.run.blocks).filter((b) => b.level === 2 || b.level === 3);
    for (const block of checked) expect(block.summary.content).toContain('Also: the parser still fails on empty input.');
    const checks = summarizer.requests.filter((r) => r.promptId === 'fold-self-check');
    expect(checks).toHaveLength(checked.length);
    expect(checks[0]?.prompt).toMatch(/<summary>\nSummary \(iteration/);
    expect(result.notes.at(-1)).toBe(`Self-check: ${checked.length} of ${checked.length} summaries missed facts; ${checked.length} added.`);
  });

  it('an unusable self-check keeps the summary', async () => {
    const { entries, run } = folded();
    const summarizer = fake((r) => (r.promptId === 'fold-self-check' ? 'looks complete to me' : GOOD[r.promptId]!(r)));
    const result = await enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS, selfCheck: true });
    const block = all(result.run.blocks).find((b) => b.level === 2)!;
    expect(block.summary.content).toMatch(/^Model summary of [^A]*$/);
    expect(result.notes[0]).toContain('the self-check failed (reply was not JSON (no object in it)); kept the summary as written.');
  });

  it('reuses cached digests: a second run asks nothing; cachedOnly never asks', async () => {
    const { entries, run } = folded();
    const cache: ModelDigestCache = new Map();
    const first = await enrichRun(run, entries, fake(), { prompts, counter, options: OPTIONS, cache, model: 'm' });
    const again = fake();
    const second = await enrichRun(run, entries, again, { prompts, counter, options: OPTIONS, cache, model: 'm' });
    expect(again.requests).toHaveLength(0);
    expect(second.reused).toBe(first.made);
    expect(second.made).toBe(0);
    expect(second.run).toEqual(first.run);
    // Another model is another key.
    const other = fake();
    await enrichRun(run, entries, other, { prompts, counter, options: OPTIONS, cache, model: 'n', cachedOnly: true });
    expect(other.requests).toHaveLength(0);
  });

  it('stops on abort; what was made stays cached', async () => {
    const { entries, run } = folded();
    const controller = new AbortController();
    const cache: ModelDigestCache = new Map();
    const summarizer = fake((r, n) => {
      if (n === 3) controller.abort();
      return GOOD[r.promptId]!(r);
    });
    await expect(enrichRun(run, entries, summarizer, { prompts, counter, options: OPTIONS, cache, signal: controller.signal })).rejects.toThrow(CancelledError);
    expect(cache.size).toBeGreaterThanOrEqual(2);
    const hanging: Summarizer = { id: 'hang', label: 'Hang', summarize: () => new Promise(() => undefined) };
    const late = new AbortController();
    setTimeout(() => late.abort(), 20);
    await expect(enrichRun(run, entries, hanging, { prompts, counter, options: OPTIONS, signal: late.signal })).rejects.toThrow('Model summaries cancelled');
  });
});
