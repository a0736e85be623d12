import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPrompts } from '../test-fixtures.ts';
import { SummarizerError, type Summarizer, type SummaryRequest } from '../compaction/summarizer.ts';
import { failingSummarizer, hangingSummarizer } from '../compaction/testing.ts';
import { placeholders } from '../compaction/prompts.ts';
import { importText } from '../import/run.ts';
import type { Entry } from '../journal/entry.ts';
import { priceFor } from '../pricing.ts';
import { createOfflineSummarizer } from '../summarize/offline.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { compareConfigs, type CompareOutput } from './compare.ts';
import {
  aggregateGrades, estimateJudge, planJudge, runJudge, type JudgeCache, type JudgeCacheRow, type JudgedItem,
} from './judge.ts';
import {
  ANSWER_PROMPT, buildQuestions, excerpt, GRADE_PROMPT, JUDGE_QUESTIONS, MAX_REFERENCE_FACTS, parseGrade, referenceText, type CachedAnswer, type CachedGrade,
} from './judge-questions.ts';
import { CancelledError } from '../cancel.ts';

const prompts = loadPrompts();
const counter = getEstimator('chars4');

/** A summarizer whose replies a script writes from each request; every request is recorded. */
function scriptedSummarizer(reply: (request: SummaryRequest, n: number) => string): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    id: 'scripted',
    label: 'Scripted (tests)',
    requests,
    summarize(request) {
      requests.push(request);
      return Promise.resolve({ text: reply(request, requests.length - 1), model: 'scripted-1', usage: { input: request.prompt.length, output: 20 } });
    },
  };
}

/** Answers name their category; grades score artifact 4, everything else 2. */
const fair = (request: SummaryRequest) => (request.promptId === ANSWER_PROMPT
  ? `ANSWER about ${request.vars.category}`
  : JSON.stringify({ score: request.vars.category === 'artifact' ? 4 : 2, reason: `graded ${request.vars.category}` }));

/** A cache over a Map, filled from a run's rows. */
function memoryCache(): JudgeCache & { put: (rows: readonly JudgeCacheRow[]) => void } {
  const rows = new Map<string, JudgeCacheRow>();
  return {
    put: (list) => list.forEach((row) => rows.set(row.key, row)),
    answer: (key) => {
      const row = rows.get(key);
      return Promise.resolve(row?.kind === 'answer' ? ({ text: row.text, model: row.model } satisfies CachedAnswer) : undefined);
    },
    grade: (key) => {
      const row = rows.get(key);
      return Promise.resolve(row?.kind === 'grade' ? ({ score: row.score, reason: row.reason, model: row.model } satisfies CachedGrade) : undefined);
    },
  };
}

let journal: Entry[];
let byId: Map<string, Entry>;
let compared: CompareOutput;

beforeAll(async () => {
  journal = importText(readFileSync('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'), { format: 'claude-code' }).entries;
  byId = new Map(journal.map((entry) => [entry.id, entry]));
  compared = await compareConfigs({
    journal, totals: countEntries(journal, counter).totals, counter, contextWindow: 50_000, prompts, summarizer: createOfflineSummarizer(),
    configs: [{ strategy: 'pi', options: {} }, { strategy: 'sliding-window', options: {} }],
  });
});

describe('the prompt files', () => {
  it('use the placeholders the judge fills', () => {
    expect(placeholders(prompts[ANSWER_PROMPT]!).sort()).toEqual(['category', 'context', 'max_words', 'question']);
    expect(placeholders(prompts[GRADE_PROMPT]!).sort()).toEqual(['answer', 'category', 'question', 'reason_chars', 'reference']);
  });
});

describe('buildQuestions', () => {
  it('asks one question per category that has probes, the same for every configuration, naming nothing of the answer', () => {
    const questions = buildQuestions(compared.results, (id) => byId.get(id));
    const categories = new Set(compared.results.flatMap((r) => r.probes.map((o) => o.probe.category)));
    expect(questions.map((q) => q.category).sort()).toEqual([...categories].sort());
    for (const question of questions) {
      expect(question.question).toBe(JUDGE_QUESTIONS[question.category]);
      expect(question.facts.length).toBeGreaterThan(0);
      expect(question.facts.length).toBeLessThanOrEqual(MAX_REFERENCE_FACTS);
      for (const fact of question.facts) expect(question.question).not.toContain(fact.text);
      // Every fact comes with the passage of the transcript it was read from.
      expect(question.facts.every((fact) => fact.source && fact.source.length > 0)).toBe(true);
    }
    const artifact = questions.find((q) => q.category === 'artifact');
    if (artifact && artifact.omitted > 0) expect(artifact.facts).toHaveLength(MAX_REFERENCE_FACTS);
  });

  it('leaves dismissed probes out of the references', () => {
    const all = buildQuestions(compared.results, (id) => byId.get(id));
    const first = all[0]!.facts[0]!;
    const without = buildQuestions(compared.results, (id) => byId.get(id), new Set([first.probeId]));
    expect(without.flatMap((q) => q.facts.map((f) => f.probeId))).not.toContain(first.probeId);
  });

  it('quotes the source passage around the fact', () => {
    const text = `${'x '.repeat(400)}the user said: never push to main without review. ${'y '.repeat(400)}`;
    const passage = excerpt(text, { text: 'never push to main without review.', needles: [] })!;
    expect(passage).toContain('never push to main without review.');
    expect(passage.length).toBeLessThanOrEqual(302);
  });
});

describe('parseGrade', () => {
  it('accepts a JSON object, in a fence or with prose around it', () => {
    expect(parseGrade('{"score": 4, "reason": "missed one file"}')).toEqual({ score: 4, reason: 'missed one file' });
    expect(parseGrade('Here:\n```json\n{"score": "3", "reason": "ok"}\n```')).toEqual({ score: 3, reason: 'ok' });
    expect(parseGrade('<think>hmm</think>{"score": 2}')).toEqual({ score: 2, reason: '' });
  });
  it('clamps the score to 0-5', () => {
    expect(parseGrade('{"score": 9, "reason": "r"}').score).toBe(5);
    expect(parseGrade('{"score": -2, "reason": "r"}').score).toBe(0);
    expect(parseGrade('{"score": 3.46, "reason": "r"}').score).toBe(3.5);
  });
  it('says what is wrong with a reply it cannot use', () => {
    expect(() => parseGrade('I would give it a four.')).toThrow(/not JSON/);
    expect(() => parseGrade('{"reason": "r"}')).toThrow(/"score" is missing/);
    expect(() => parseGrade('{"score": "high"}')).toThrow(/expected a number/);
    expect(() => parseGrade('')).toThrow(/empty/);
  });
});

describe('planJudge, estimateJudge, runJudge', () => {
  const plan = (cache: JudgeCache, model = 'openai|https://api.openai.com/v1|gpt-4o-mini') => planJudge({ results: compared.results, byId, model, prompts, cache });

  it('bounds the questions to one per category and configuration, and estimates before anything is sent', async () => {
    const p = await plan(memoryCache());
    expect(p.targets).toHaveLength(2);
    expect(p.items).toHaveLength(2 * p.questions.length);
    expect(p.questions.length).toBeLessThanOrEqual(6);
    const estimate = estimateJudge(p, prompts, counter, priceFor('gpt-4o-mini'));
    expect(estimate).toMatchObject({ questions: p.items.length, cached: 0, requests: 2 * p.items.length, counter: 'chars/4', priceModel: 'gpt-4o-mini' });
    // The answer prompts carry the whole final context: the estimate counts them.
    const contexts = p.items.reduce((sum, item) => sum + counter.count(item.answerPrompt), 0);
    expect(estimate.inputTokens).toBeGreaterThan(contexts);
    expect(estimate.cost).toBeCloseTo((estimate.inputTokens * 0.15 + estimate.outputTokens * 0.6) / 1_000_000, 10);
    expect(estimateJudge(p, prompts, counter, undefined).cost).toBeNull();
    expect(estimateJudge(p, prompts, counter, 'free').cost).toBe(0);
  });

  it('answers from the compacted context only, grades against the reference, and a second run costs nothing', async () => {
    const cache = memoryCache();
    const model = scriptedSummarizer(fair);
    const first = await plan(cache);
    const run = await runJudge({ plan: first, summarizer: model, prompts });
    expect(model.requests).toHaveLength(2 * first.items.length);
    expect(run.requests).toBe(model.requests.length);
    const answers = model.requests.filter((r) => r.promptId === ANSWER_PROMPT);
    const grades = model.requests.filter((r) => r.promptId === GRADE_PROMPT);
    // The answering model sees the context and the question, never the reference.
    for (const request of answers) {
      const question = first.questions.find((q) => q.category === request.vars.category)!;
      expect(request.prompt).toContain(question.question);
      expect(request.prompt).toContain('<context');
      expect(request.prompt).not.toContain(referenceText(question));
    }
    for (const request of grades) {
      const question = first.questions.find((q) => q.category === request.vars.category)!;
      expect(request.prompt).toContain(referenceText(question));
      expect(request.prompt).toContain(`ANSWER about ${question.category}`);
    }
    expect(run.items.every((item) => item.score === (item.category === 'artifact' ? 4 : 2))).toBe(true);
    expect(run.rows).toHaveLength(2 * first.items.length);

    const grades2 = aggregateGrades(run.items);
    expect(grades2.map((g) => g.label)).toEqual(compared.results.map((r) => r.label));
    for (const config of grades2) {
      for (const [category, cell] of Object.entries(config.categories)) expect(cell.mean).toBe(category === 'artifact' ? 4 : 2);
    }

    cache.put(run.rows);
    const again = await plan(cache);
    expect(estimateJudge(again, prompts, counter, priceFor('gpt-4o-mini'))).toMatchObject({ requests: 0, inputTokens: 0, cost: 0, cached: again.items.length });
    const silent = scriptedSummarizer(fair);
    const rerun = await runJudge({ plan: again, summarizer: silent, prompts });
    expect(silent.requests).toHaveLength(0);
    expect(rerun.items.map((i) => i.score)).toEqual(run.items.map((i) => i.score));
    expect(rerun.items.every((i) => i.cached.answer && i.cached.grade)).toBe(true);
    // Another model shares nothing of the cache.
    expect((await plan(cache, 'anthropic|https://api.anthropic.com|claude-haiku-4-5')).items.some((i) => i.cachedAnswer)).toBe(false);
  });

  it('asks a malformed grade once more, then records it as unparseable (the answer is still cached)', async () => {
    const p = await plan(memoryCache());
    let bad = 0;
    const model = scriptedSummarizer((request) => {
      if (request.promptId === ANSWER_PROMPT) return 'an answer';
      if (request.vars.category === 'artifact') {
        bad++;
        return bad === 1 ? 'Score: four out of five' : '{"score": 5, "reason": "all files named"}';
      }
      return request.vars.category === 'task' ? 'no idea' : '{"score": 3}';
    });
    const run = await runJudge({ plan: p, summarizer: model, prompts });
    const artifact = run.items.filter((i) => i.category === 'artifact');
    expect(artifact[0]).toMatchObject({ score: 5, reason: 'all files named' });
    expect(artifact[0]!.unparseable).toBeUndefined();
    const retry = model.requests.find((r) => r.promptId === GRADE_PROMPT && r.prompt.includes('could not be used'));
    expect(retry?.prompt).toContain('not JSON');
    const task = run.items.filter((i) => i.category === 'task');
    for (const item of task) expect(item).toMatchObject({ score: null, unparseable: expect.stringMatching(/not JSON/) as unknown });
    expect(run.rows.filter((r) => r.kind === 'grade')).toHaveLength(run.items.length - task.length);
    expect(run.rows.filter((r) => r.kind === 'answer')).toHaveLength(run.items.length);
    const grades = aggregateGrades(run.items);
    expect(grades[0]!.categories.task).toEqual({ mean: null, graded: 0, unparseable: 1 });
  });

  it('a model error (wrong key) ends the run with its message; a cancel or a timeout says so', async () => {
    const p = await plan(memoryCache());
    await expect(runJudge({ plan: p, summarizer: failingSummarizer(new SummarizerError('401: Incorrect API key provided.')), prompts })).rejects.toThrow('Incorrect API key');
    const controller = new AbortController();
    const pending = runJudge({ plan: p, summarizer: hangingSummarizer(), prompts, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect(runJudge({ plan: p, summarizer: hangingSummarizer(), prompts, timeoutMs: 20 })).rejects.toThrow(/did not answer within/);
  });
});

describe('aggregateGrades', () => {
  it('means per configuration and category, unparseable grades left out', () => {
    const item = (config: number, category: JudgedItem['category'], score: number | null): JudgedItem => ({
      config, label: `c${config}`, category, question: '', facts: [], omitted: 0, answer: '', score, reason: '', cached: { answer: false, grade: false },
    });
    const grades = aggregateGrades([item(1, 'artifact', 4), item(0, 'artifact', 2), item(0, 'task', 5), item(0, 'error', null)]);
    expect(grades.map((g) => g.config)).toEqual([0, 1]);
    expect(grades[0]!.categories).toEqual({ artifact: { mean: 2, graded: 1, unparseable: 0 }, task: { mean: 5, graded: 1, unparseable: 0 }, error: { mean: null, graded: 0, unparseable: 1 } });
    expect(grades[0]!.mean).toBe(3.5);
    expect(grades[1]!.mean).toBe(4);
  });
});
