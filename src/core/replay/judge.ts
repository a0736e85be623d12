/**
 * The judged mode of the retention probes (X7), after Factory's probe-based evaluation of context
 * compression: one question per probe category asked of each configuration's final context, a
 * model answering from that context alone, and the same model grading the answer 0-5 against a
 * reference built from the probes and their source text in the full transcript. Pure: the model
 * comes in as a Summarizer, the cache as two lookups; the worker stores what this returns.
 */
import { CancelledError } from '../cancel.ts';
import { getPrompt, type PromptLibrary } from '../compaction/prompts.ts';
import { SummarizerError, type Summarizer, type SummaryRequest, type SummaryResponse } from '../compaction/summarizer.ts';
import { ModelReplyError } from '../folding/model-digest.ts';
import type { Entry } from '../journal/entry.ts';
import type { Price } from '../pricing.ts';
import type { ProbeCategory } from '../probes/types.ts';
import type { TokenCounter } from '../tokens/counters.ts';
import type { ReplayResult } from './types.ts';
import {
  ANSWER_MAX_TOKENS, ANSWER_PROMPT, answerKey, answerRequest, buildQuestions, contextTranscript, DEFAULT_JUDGE_TIMEOUT_MS, GRADE_MAX_TOKENS, GRADE_PROMPT, gradeKey, gradeRequest, NEVER, parseGrade,
  type CachedAnswer, type CachedGrade, type Grade, type JudgeQuestion, type ReferenceFact,
} from './judge-questions.ts';

/** Lookups of earlier answers and grades (the worker reads them from IndexedDB). */
export interface JudgeCache {
  answer(key: string): Promise<CachedAnswer | undefined>;
  grade(key: string): Promise<CachedGrade | undefined>;
}

/** One configuration's final context, ready to ask questions of. */
export interface JudgeTarget {
  config: number;
  label: string;
  context: string;
  clipped: boolean;
}

/** One question asked of one configuration. */
export interface JudgeItem {
  config: number;
  label: string;
  question: JudgeQuestion;
  answerKey: string;
  answerPrompt: string;
  cachedAnswer?: CachedAnswer;
  /** Present only when the answer is cached (the grade key needs the answer). */
  cachedGrade?: CachedGrade;
}

/** Configurations with nothing to judge, and why. */
export interface JudgeSkip {
  config: number;
  label: string;
  reason: string;
}

export interface JudgePlan {
  model: string;
  questions: JudgeQuestion[];
  items: JudgeItem[];
  targets: JudgeTarget[];
  skipped: JudgeSkip[];
}

export interface PlanJudgeArgs {
  results: readonly ReplayResult[];
  /** Journal entries by id (final contexts and probe sources reference them). */
  byId: ReadonlyMap<string, Entry>;
  /** A stable name of the model that answers and grades (provider, base URL, model): part of every cache key. */
  model: string;
  prompts: PromptLibrary;
  cache: JudgeCache;
  dismissed?: ReadonlySet<string>;
  maxContextChars?: number;
}

/** The questions and, per configuration, what is already cached. No model is called. */
export async function planJudge(args: PlanJudgeArgs): Promise<JudgePlan> {
  getPrompt(args.prompts, ANSWER_PROMPT);
  getPrompt(args.prompts, GRADE_PROMPT);
  const questions = buildQuestions(args.results, (id) => args.byId.get(id), args.dismissed);
  const targets: JudgeTarget[] = [];
  const skipped: JudgeSkip[] = [];
  args.results.forEach((result, config) => {
    if (result.error) skipped.push({ config, label: result.label, reason: `the replay stopped: ${result.error}` });
    else if (result.finalContext.length === 0) skipped.push({ config, label: result.label, reason: 'its final context is empty' });
    else {
      const { text, clipped } = contextTranscript(result.finalContext, args.byId, args.maxContextChars);
      targets.push({ config, label: result.label, context: text, clipped });
    }
  });
  const items: JudgeItem[] = [];
  for (const target of targets) {
    for (const question of questions) {
      const key = answerKey(args.model, question, target.context, args.prompts);
      const cachedAnswer = await args.cache.answer(key);
      const cachedGrade = cachedAnswer ? await args.cache.grade(gradeKey(args.model, question, key, cachedAnswer.text, args.prompts)) : undefined;
      items.push({
        config: target.config, label: target.label, question, answerKey: key,
        answerPrompt: answerRequest(question, target.context, args.prompts, NEVER).prompt,
        ...(cachedAnswer ? { cachedAnswer } : {}),
        ...(cachedGrade ? { cachedGrade } : {}),
      });
    }
  }
  return { model: args.model, questions, items, targets, skipped };
}

/** What a judge run will cost at most, before it runs. */
export interface JudgeEstimate {
  questions: number;
  /** Questions whose answer and grade are both cached: they cost nothing. */
  cached: number;
  /** Model requests to send (a malformed grade adds one more each). */
  requests: number;
  /** Input tokens of every prompt to send, in `counter` units (a grade's unknown answer counted at its cap). */
  inputTokens: number;
  /** Output tokens at most (the caps of the answers and grades to ask for). */
  outputTokens: number;
  counter: string;
  /** USD at the model's price, when known; 0 for a local model; null when unknown. */
  cost: number | null;
  priceModel?: string;
}

/** Counts every prompt a run of `plan` would send. `price` undefined: cost unknown (null). */
export function estimateJudge(plan: JudgePlan, prompts: PromptLibrary, counter: TokenCounter, price: { model: string; price: Price } | 'free' | undefined): JudgeEstimate {
  let requests = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cached = 0;
  for (const item of plan.items) {
    if (item.cachedAnswer && item.cachedGrade) {
      cached++;
      continue;
    }
    if (!item.cachedAnswer) {
      requests++;
      inputTokens += counter.count(item.answerPrompt);
      outputTokens += ANSWER_MAX_TOKENS;
    }
    requests++;
    const grade = gradeRequest(item.question, item.cachedAnswer?.text ?? '', prompts, NEVER);
    inputTokens += counter.count(grade.prompt) + (item.cachedAnswer ? 0 : ANSWER_MAX_TOKENS);
    outputTokens += GRADE_MAX_TOKENS;
  }
  const cost = price === 'free' ? 0 : price ? (inputTokens / 1_000_000) * price.price.input + (outputTokens / 1_000_000) * price.price.output : null;
  return {
    questions: plan.items.length, cached, requests, inputTokens, outputTokens, counter: counter.label, cost,
    ...(price && price !== 'free' ? { priceModel: price.model } : {}),
  };
}

/** One judged question: the answer, the grade (null when the grade reply could not be used) and the judge's reason. */
export interface JudgedItem {
  config: number;
  label: string;
  category: ProbeCategory;
  question: string;
  facts: ReferenceFact[];
  omitted: number;
  answer: string;
  score: number | null;
  reason: string;
  /** Why the grade is missing: the grading reply could not be used, even when asked again. */
  unparseable?: string;
  /** Whether the answer and the grade came from the cache. */
  cached: { answer: boolean; grade: boolean };
}

/** A row for the cache, written by the worker only when the whole run succeeds. */
export type JudgeCacheRow =
  | { key: string; kind: 'answer'; model: string; text: string }
  | { key: string; kind: 'grade'; model: string; score: number; reason: string };

export interface JudgeProgress {
  done: number;
  total: number;
  config: number;
  label: string;
  category: ProbeCategory;
  phase: 'answering' | 'grading';
}

export interface RunJudgeArgs {
  plan: JudgePlan;
  summarizer: Summarizer;
  prompts: PromptLibrary;
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: JudgeProgress) => void;
}

export interface JudgeRun {
  items: JudgedItem[];
  /** New answers and grades, for the cache. */
  rows: JudgeCacheRow[];
  requests: number;
  usage: { input: number; output: number };
  /** Model names the provider reported. */
  models: string[];
}

/** The user cancelled a judge run: nothing was stored. */
export function judgeCancelled(): CancelledError {
  return new CancelledError('Judging cancelled: nothing was stored.');
}

/** A request took longer than the timeout. */
export class JudgeTimeoutError extends Error {
  override name = 'JudgeTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`The model did not answer within ${Math.round(timeoutMs / 1000)} s: try again, or a smaller or faster model.`);
  }
}

/**
 * Asks, one request at a time, what the cache does not hold: each answer, then its grade (a
 * malformed grade is asked once more, then recorded as unparseable). A model error (rate limit,
 * wrong key) or a cancel ends the run with that error: the caller stores nothing of it.
 */
export async function runJudge(args: RunJudgeArgs): Promise<JudgeRun> {
  const { plan } = args;
  const items: JudgedItem[] = [];
  const rows: JudgeCacheRow[] = [];
  const usage = { input: 0, output: 0 };
  const models = new Set<string>();
  let requests = 0;
  const total = plan.items.length;
  const ask = async (request: Omit<SummaryRequest, 'signal'>): Promise<SummaryResponse> => {
    const response = await callModel(args, request);
    requests++;
    usage.input += response.usage?.input ?? 0;
    usage.output += response.usage?.output ?? 0;
    models.add(response.model);
    return response;
  };
  for (const [n, item] of plan.items.entries()) {
    if (args.signal?.aborted) throw judgeCancelled();
    const at = { done: n, total, config: item.config, label: item.label, category: item.question.category };
    let answer = item.cachedAnswer?.text;
    if (answer === undefined) {
      args.onProgress?.({ ...at, phase: 'answering' });
      const request = { taskId: `answer:${item.config}:${item.question.category}`, promptId: ANSWER_PROMPT, prompt: item.answerPrompt, entries: [], serialized: '', vars: { category: item.question.category, question: item.question.question }, maxTokens: ANSWER_MAX_TOKENS };
      answer = (await ask(request)).text.trim();
      rows.push({ key: item.answerKey, kind: 'answer', model: plan.model, text: answer });
    }
    let grade: Grade | undefined = item.cachedGrade;
    let unparseable: string | undefined;
    if (!grade) {
      args.onProgress?.({ ...at, phase: 'grading' });
      const taskId = `grade:${item.config}:${item.question.category}`;
      const key = gradeKey(plan.model, item.question, item.answerKey, answer, args.prompts);
      for (let attempt = 0; attempt < 2 && !grade; attempt++) {
        const { signal: _unused, ...request } = gradeRequest(item.question, answer, args.prompts, NEVER, { taskId, ...(unparseable ? { retryNote: unparseable } : {}) });
        const reply = await ask(request);
        try {
          grade = parseGrade(reply.text);
        } catch (error) {
          if (!(error instanceof ModelReplyError)) throw error;
          unparseable = error.message;
        }
      }
      if (grade) {
        unparseable = undefined;
        rows.push({ key, kind: 'grade', model: plan.model, score: grade.score, reason: grade.reason });
      }
    }
    items.push({
      config: item.config, label: item.label, category: item.question.category, question: item.question.question,
      facts: item.question.facts, omitted: item.question.omitted, answer,
      score: grade?.score ?? null, reason: grade?.reason ?? '',
      ...(unparseable ? { unparseable } : {}),
      cached: { answer: item.cachedAnswer !== undefined, grade: item.cachedGrade !== undefined },
    });
  }
  if (args.signal?.aborted) throw judgeCancelled();
  args.onProgress?.({ done: total, total, config: plan.items.at(-1)?.config ?? 0, label: plan.items.at(-1)?.label ?? '', category: plan.items.at(-1)?.question.category ?? 'task', phase: 'grading' });
  return { items, rows, requests, usage, models: [...models] };
}

/** One model request under the timeout and the user's cancel, whatever the summarizer does with its signal. */
async function callModel(args: RunJudgeArgs, request: Omit<SummaryRequest, 'signal'>): Promise<SummaryResponse> {
  const timeoutMs = args.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new JudgeTimeoutError(timeoutMs)), timeoutMs);
  const signal = args.signal ? AbortSignal.any([args.signal, timeout.signal]) : timeout.signal;
  try {
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(args.signal?.aborted ? judgeCancelled() : new JudgeTimeoutError(timeoutMs));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    const response = await Promise.race([args.summarizer.summarize({ ...request, signal }), aborted]);
    if (typeof response.text !== 'string') throw new SummarizerError(`${args.summarizer.label} returned no text.`);
    return response;
  } catch (error) {
    if (args.signal?.aborted) throw judgeCancelled();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Mean grade of one configuration in one category (null when no answer of it could be graded). */
export interface CategoryGrade {
  mean: number | null;
  graded: number;
  unparseable: number;
}

export interface ConfigGrades {
  config: number;
  label: string;
  categories: Partial<Record<ProbeCategory, CategoryGrade>>;
  /** Mean over every graded answer of the configuration. */
  mean: number | null;
}

/** Per configuration and category, the mean grade (one decimal kept by the caller's formatting). */
export function aggregateGrades(items: readonly JudgedItem[]): ConfigGrades[] {
  const byConfig = new Map<number, ConfigGrades & { sum: number; n: number }>();
  const sums = new Map<string, { sum: number; graded: number; unparseable: number }>();
  for (const item of items) {
    let config = byConfig.get(item.config);
    if (!config) byConfig.set(item.config, (config = { config: item.config, label: item.label, categories: {}, mean: null, sum: 0, n: 0 }));
    const key = `${item.config}\u0000${item.category}`;
    let cell = sums.get(key);
    if (!cell) sums.set(key, (cell = { sum: 0, graded: 0, unparseable: 0 }));
    if (item.score === null) cell.unparseable++;
    else {
      cell.sum += item.score;
      cell.graded++;
      config.sum += item.score;
      config.n++;
    }
    config.categories[item.category] = { mean: cell.graded > 0 ? cell.sum / cell.graded : null, graded: cell.graded, unparseable: cell.unparseable };
  }
  return [...byConfig.values()]
    .sort((a, b) => a.config - b.config)
    .map(({ sum, n, ...grades }) => ({ ...grades, mean: n > 0 ? sum / n : null }));
}
