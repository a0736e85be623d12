/**
 * The judged mode in Node, over one replayed file: the same questions, prompts, grade parsing and
 * run as the page's (core/replay/judge.ts), asked of the context right after each compaction
 * (`--judge-at compaction`, the facts that compaction removed) or of the context at the final call
 * (`--judge-at final`, every fact that left the verbatim context). Questions are asked side by
 * side, the model client bounding what is in flight; a question whose request failed or whose
 * grade could not be read is reported with why, never counted as 0.
 */
import type { PromptLibrary } from '../core/compaction/prompts.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import type { Entry } from '../core/journal/entry.ts';
import type { Price } from '../core/pricing.ts';
import type { TokenCounter } from '../core/tokens/counters.ts';
import { compactionContext } from '../core/replay/compaction-context.ts';
import type { CompareOutput } from '../core/replay/compare.ts';
import { estimateJudge, planJudge, runJudge, type JudgeCache, type JudgeEstimate, type JudgeItem, type JudgePlan } from '../core/replay/judge.ts';
import { ANSWER_MAX_TOKENS, ANSWER_PROMPT, gradeRequest, NEVER, parseGrade } from '../core/replay/judge-questions.ts';
import { gradesByKind, KIND_OF_CATEGORY, type JudgeKind, type KindGrades } from '../core/replay/judge-kinds.ts';
import type { ProbeCategory } from '../core/probes/types.ts';
import type { ReplayResult } from '../core/replay/types.ts';
import type { RequestCache } from './model-cache.ts';

/** One question as `--json` reports it. */
export interface JudgedQuestion {
  kind: JudgeKind;
  category: ProbeCategory;
  question: string;
  answer: string;
  /** 0-5; null when no grade could be had (see `error`). */
  grade: number | null;
  rationale: string;
  /** Why the grade is missing: a grade reply that could not be read, or a request that failed. */
  error?: string;
  /** With `--judge-at compaction`: the call the compaction ran before. */
  atCall?: number;
}

/** One configuration's judged result: the means by dimension and every question. */
export type JudgedReport = KindGrades & { at: 'compaction' | 'final'; model: string; questions: JudgedQuestion[] };

/** One plan of a file: a configuration's questions at one compaction, or every configuration's at the final call. */
interface FilePlan {
  plan: JudgePlan;
  /** Configuration index of the plan's items (compaction plans hold one configuration, as item config 0). */
  config?: number;
  atCall?: number;
}

/** Holds nothing: the model client's request cache answers repeated requests instead. */
const NO_CACHE: JudgeCache = { answer: () => Promise.resolve(undefined), grade: () => Promise.resolve(undefined) };

export interface FileJudgeArgs {
  output: CompareOutput;
  journal: readonly Entry[];
  at: 'compaction' | 'final';
  /** The judge model's identity (modelIdentity): part of the questions' keys. */
  model: string;
  prompts: PromptLibrary;
}

/** The questions of one file's configurations, with nothing sent. */
export async function planFileJudge(args: FileJudgeArgs): Promise<FilePlan[]> {
  const byId = new Map(args.journal.map((entry) => [entry.id, entry]));
  const common = { byId, model: args.model, prompts: args.prompts, cache: NO_CACHE };
  if (args.at === 'final') return [{ plan: await planJudge({ ...common, results: args.output.results }) }];
  const plans: FilePlan[] = [];
  for (const [config, result] of args.output.results.entries()) {
    for (const [k, compaction] of result.compactions.entries()) {
      if (compaction.probes.length === 0) continue;
      // The context right after this compaction, asked about the facts it removed (a later failure of the run does not undo it).
      const at: ReplayResult = { ...result, probes: compaction.probes, finalContext: compactionContext(result.compactions, k, args.output.entryIds) };
      delete at.error;
      plans.push({ plan: await planJudge({ ...common, results: [at] }), config, atCall: compaction.call });
    }
  }
  return plans;
}

/** What the plans would send, counting as done what the request cache already holds (`identity`: the judge model in the cache). */
export function estimateFileJudge(plans: readonly FilePlan[], cache: RequestCache, identity: string, systemPromptId: string, prompts: PromptLibrary, counter: TokenCounter, price: Price | undefined): JudgeEstimate {
  const total: JudgeEstimate = { questions: 0, cached: 0, requests: 0, inputTokens: 0, outputTokens: 0, counter: counter.label, cost: price ? 0 : null };
  for (const { plan } of plans) {
    const items = plan.items.map((item) => withCached(item, cache, identity, systemPromptId, prompts));
    const one = estimateJudge({ ...plan, items }, prompts, counter, price ? { model: identity, price } : undefined);
    total.questions += one.questions;
    total.cached += one.cached;
    total.requests += one.requests;
    total.inputTokens += one.inputTokens;
    total.outputTokens += one.outputTokens;
    total.cost = total.cost === null || one.cost === null ? null : total.cost + one.cost;
  }
  return total;
}

/** The item with the answer and grade the request cache holds, as runJudge would be answered. */
function withCached(item: JudgeItem, cache: RequestCache, identity: string, systemPromptId: string, prompts: PromptLibrary): JudgeItem {
  const answer = cache.get(cache.key(identity, { promptId: ANSWER_PROMPT, prompt: item.answerPrompt, maxTokens: ANSWER_MAX_TOKENS }, systemPromptId));
  if (!answer) return item;
  const text = answer.text.trim();
  const grade = cache.get(cache.key(identity, gradeRequest(item.question, text, prompts, NEVER), systemPromptId));
  let cachedGrade: JudgeItem['cachedGrade'];
  try {
    cachedGrade = grade ? { ...parseGrade(grade.text), model: grade.model } : undefined;
  } catch {
    cachedGrade = undefined; // a malformed cached grade is asked again (with the note), as a run does
  }
  return { ...item, cachedAnswer: { text, model: answer.model }, ...(cachedGrade ? { cachedGrade } : {}) };
}

/** Asks every question of the plans (side by side) and returns each configuration's judged result, by configuration index. */
export async function runFileJudge(plans: readonly FilePlan[], configs: number, summarizer: Summarizer, prompts: PromptLibrary, at: 'compaction' | 'final', model: string): Promise<Array<JudgedReport | undefined>> {
  const jobs = plans.flatMap((filePlan) => filePlan.plan.items.map((item) => ({ filePlan, item })));
  const answered = await Promise.all(jobs.map(async ({ filePlan, item }): Promise<{ config: number; question: JudgedQuestion }> => {
    const config = filePlan.config ?? item.config;
    const base = { kind: KIND_OF_CATEGORY[item.question.category], category: item.question.category, question: item.question.question, ...(filePlan.atCall !== undefined ? { atCall: filePlan.atCall } : {}) };
    try {
      const run = await runJudge({ plan: { ...filePlan.plan, items: [item] }, summarizer, prompts });
      const judged = run.items[0]!;
      return { config, question: { ...base, answer: judged.answer, grade: judged.score, rationale: judged.reason, ...(judged.unparseable ? { error: `the grade could not be read, even when asked again: ${judged.unparseable}` } : {}) } };
    } catch (error) {
      return { config, question: { ...base, answer: '', grade: null, rationale: '', error: `${(error as Error).name}: ${(error as Error).message}` } };
    }
  }));
  const byConfig: Array<JudgedReport | undefined> = Array.from({ length: configs }, () => undefined);
  for (const { config, question } of answered) {
    const report = (byConfig[config] ??= { ...gradesByKind([]), at, model, questions: [] });
    report.questions.push(question);
  }
  return byConfig.map((report) => (report ? { ...report, ...gradesByKind(report.questions.map((q) => ({ category: q.category, score: q.grade }))) } : undefined));
}
