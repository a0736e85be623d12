/**
 * The questions of the judged mode (X7): one per probe category, its reference (the probes with
 * their source passages from the full transcript), the answer and grade requests sent to the
 * model, the validation of a grade reply, and the cache keys. Pure; `judge.ts` runs them.
 */
import { getPrompt, renderTemplate, type PromptLibrary } from '../compaction/prompts.ts';
import { promptVersion } from '../compaction/run.ts';
import { serializeEntries, truncateMiddle, wrapTranscript } from '../compaction/serialize.ts';
import { type SummaryRequest } from '../compaction/summarizer.ts';
import { fnv1a64 } from '../hash.ts';
import { ModelReplyError, parseJsonReply } from '../folding/model-digest.ts';
import { entryText, type Entry } from '../journal/entry.ts';
import { clip } from '../probes/make.ts';
import { PROBE_CATEGORIES, type Probe, type ProbeCategory } from '../probes/types.ts';
import type { ContextRef, ReplayResult } from './types.ts';

/** Prompt files (prompts/<id>.md): the answer from the compacted context, and the grade. */
export const ANSWER_PROMPT = 'probe-answer';
export const GRADE_PROMPT = 'probe-judge';

/** A signal for requests only rendered (plans, estimates), never sent with it: a run adds its own. */
export const NEVER = new AbortController().signal;

/**
 * One question per category, asked the same way of every configuration. None names anything of
 * the answer: the facts are in the reference only, which the answering model never sees.
 */
export const JUDGE_QUESTIONS: Readonly<Record<ProbeCategory, string>> = {
  artifact: 'Which files did the agent modify, create, delete or read so far, and what happened to each?',
  constraint: 'What instructions did the user give that the agent must keep following?',
  task: 'What is the user currently asking for?',
  error: 'What errors did the agent hit, and were they fixed?',
  identifier: 'What exact values (URLs, commits, versions, issue numbers, numbers) did the user give?',
  decision: 'What choices did the agent make between alternatives, and why?',
};

/** Probes listed in one question's reference, at most; past it they are sampled evenly over the session. Default 20. */
export const MAX_REFERENCE_FACTS = 20;
/** Characters of source text quoted under each reference fact. Default 300. */
export const SOURCE_EXCERPT_CHARS = 300;
/** Output cap of an answer, tokens. Default 600. */
export const ANSWER_MAX_TOKENS = 600;
/** Words an answer is asked to stay under. */
const ANSWER_MAX_WORDS = 250;
/** Output cap of a grade, tokens. Default 250. */
export const GRADE_MAX_TOKENS = 250;
/** Longest reason kept from a grade, characters. */
export const REASON_MAX_CHARS = 400;
/**
 * Characters of a final context sent to the answering model, at most (both ends kept, the middle
 * marked as omitted). Default 400,000 (about 100k tokens): a small local model needs less.
 */
export const DEFAULT_JUDGE_CONTEXT_CHARS = 400_000;
/** Per request (answer or grade), ms. Default 120 s. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 120_000;

/** One fact of a reference: a probe and the passage of the transcript it was read from. */
export interface ReferenceFact {
  probeId: string;
  kind: string;
  text: string;
  /** The passage around the fact in its source entry, when the entry is known. */
  source?: string;
}

/** A question asked of every configuration, with the reference its answers are graded against. */
export interface JudgeQuestion {
  category: ProbeCategory;
  question: string;
  facts: ReferenceFact[];
  /** Probes of the category left out of the reference by `MAX_REFERENCE_FACTS`. */
  omitted: number;
}

/**
 * The questions of a comparison: one per category that has probes. The reference of a category is
 * the union of every configuration's probes (every fact that left some configuration's verbatim
 * context), so every configuration answers the same question against the same reference. The task
 * reference is the latest requests only: the question is what the user asks for now.
 */
export function buildQuestions(results: readonly ReplayResult[], sourceOf: (entryId: string) => Entry | undefined, dismissed: ReadonlySet<string> = new Set()): JudgeQuestion[] {
  const byCategory = new Map<ProbeCategory, Map<string, Probe>>();
  for (const result of results) {
    if (result.error) continue;
    for (const { probe } of result.probes) {
      if (dismissed.has(probe.id)) continue;
      let probes = byCategory.get(probe.category);
      if (!probes) byCategory.set(probe.category, (probes = new Map()));
      probes.set(probe.id, probe);
    }
  }
  const questions: JudgeQuestion[] = [];
  for (const category of PROBE_CATEGORIES) {
    const all = [...(byCategory.get(category)?.values() ?? [])].sort((a, b) => a.entryIndex - b.entryIndex || a.id.localeCompare(b.id));
    if (all.length === 0) continue;
    const chosen = category === 'task' ? all.slice(-3) : sample(all, MAX_REFERENCE_FACTS);
    questions.push({
      category,
      question: JUDGE_QUESTIONS[category],
      facts: chosen.map((probe) => {
        const entry = sourceOf(probe.entryId);
        const source = entry ? excerpt(entryText(entry), probe) : undefined;
        return { probeId: probe.id, kind: probe.kind, text: probe.text, ...(source ? { source } : {}) };
      }),
      omitted: all.length - chosen.length,
    });
  }
  return questions;
}

/** `max` items spread evenly over the list (first and last included), in order. */
function sample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max <= 1) return items.slice(-1);
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return out;
}

/** The passage of `text` around the probe's text (or its first needle), one line, at most SOURCE_EXCERPT_CHARS. */
export function excerpt(text: string, probe: Pick<Probe, 'text' | 'needles'>): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  const lower = flat.toLowerCase();
  const shown = probe.text.replace(/…$/, '').toLowerCase().slice(0, 60);
  let at = shown ? lower.indexOf(shown) : -1;
  if (at < 0) {
    const needle = probe.needles[0]?.[0];
    at = needle ? lower.indexOf(needle) : -1;
  }
  const start = Math.max(0, (at < 0 ? 0 : at) - 100);
  const end = Math.min(flat.length, start + SOURCE_EXCERPT_CHARS);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

/** A reference as the grading model reads it: one fact per line, its kind, and its source passage. */
export function referenceText(question: JudgeQuestion): string {
  const lines = question.facts.map((fact, i) => `${i + 1}. [${fact.kind}] ${fact.text}${fact.source ? `\n   source: "${fact.source}"` : ''}`);
  if (question.omitted > 0) lines.push(`(${question.omitted} more fact${question.omitted === 1 ? '' : 's'} of this kind not listed: do not count them as missing.)`);
  if (question.category === 'task') lines.unshift('The user\'s requests, oldest first; the last one is the current request.');
  return lines.join('\n');
}

/**
 * A final context as the answering model reads it: every entry serialized (tool results in full),
 * clipped to `maxChars` with both ends kept. `clipped` says whether it had to be.
 */
export function contextTranscript(refs: readonly ContextRef[], byId: ReadonlyMap<string, Entry>, maxChars = DEFAULT_JUDGE_CONTEXT_CHARS): { text: string; clipped: boolean; missing: number } {
  const entries: Entry[] = [];
  let missing = 0;
  for (const ref of refs) {
    const entry = ref.origin === 'journal' ? byId.get(ref.entryId) : ref.entry;
    if (entry) entries.push(entry);
    else missing++;
  }
  const full = serializeEntries(entries, Number.POSITIVE_INFINITY);
  return { text: truncateMiddle(full, maxChars), clipped: full.length > maxChars, missing };
}

function answerVars(question: JudgeQuestion, context: string): Record<string, string> {
  return { category: question.category, question: question.question, max_words: String(ANSWER_MAX_WORDS), context: wrapTranscript(context, 'context') };
}

/** The request asking the model to answer `question` from a compacted context. */
export function answerRequest(question: JudgeQuestion, context: string, prompts: PromptLibrary, signal: AbortSignal, taskId = `answer:${question.category}`): SummaryRequest {
  const vars = answerVars(question, context);
  const prompt = renderTemplate(getPrompt(prompts, ANSWER_PROMPT), vars);
  return { taskId, promptId: ANSWER_PROMPT, prompt, entries: [], serialized: context, vars, maxTokens: ANSWER_MAX_TOKENS, signal };
}

/** The request asking the model to grade `answer` against the question's reference. `retryNote` is added when asking again. */
export function gradeRequest(question: JudgeQuestion, answer: string, prompts: PromptLibrary, signal: AbortSignal, options: { retryNote?: string; taskId?: string } = {}): SummaryRequest {
  const reference = referenceText(question);
  const vars: Record<string, string> = {
    category: question.category,
    question: question.question,
    reason_chars: String(REASON_MAX_CHARS),
    reference: wrapTranscript(reference, 'reference'),
    answer: wrapTranscript(answer.trim() || '(no answer)', 'answer'),
  };
  let prompt = renderTemplate(getPrompt(prompts, GRADE_PROMPT), vars);
  if (options.retryNote) prompt += `\n\nYour previous reply could not be used: ${options.retryNote}. Reply again with the JSON object only.`;
  return { taskId: options.taskId ?? `grade:${question.category}`, promptId: GRADE_PROMPT, prompt, entries: [], serialized: reference, vars, maxTokens: GRADE_MAX_TOKENS, signal };
}

/** A validated grade. */
export interface Grade {
  /** 0-5, clamped, one decimal at most. */
  score: number;
  reason: string;
}

/**
 * Validates a grading reply: `score` a number (or a numeric string) clamped to 0-5, `reason` a
 * string clipped to REASON_MAX_CHARS (empty when absent). Throws ModelReplyError saying what is wrong.
 */
export function parseGrade(reply: string): Grade {
  const object = parseJsonReply(reply);
  const raw = object.score;
  if (raw === undefined || raw === null) throw new ModelReplyError('"score" is missing');
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : Number.NaN;
  if (!Number.isFinite(value)) throw new ModelReplyError(`"score" is ${JSON.stringify(raw).slice(0, 40)}, expected a number from 0 to 5`);
  const score = Math.round(Math.min(5, Math.max(0, value)) * 10) / 10;
  const reason = typeof object.reason === 'string' ? clip(object.reason, REASON_MAX_CHARS) : '';
  return { score, reason };
}

/** Cache key of an answer: the context text, the question, the model and the answer prompt's version. */
export function answerKey(model: string, question: JudgeQuestion, context: string, prompts: PromptLibrary): string {
  return `a:${fnv1a64([model, promptVersion(prompts[ANSWER_PROMPT] ?? ''), question.category, question.question, context].join('\u0000'))}`;
}

/** Cache key of a grade: the answer's key and text, the reference, the model and the grade prompt's version. */
export function gradeKey(model: string, question: JudgeQuestion, answerCacheKey: string, answer: string, prompts: PromptLibrary): string {
  return `g:${fnv1a64([model, promptVersion(prompts[GRADE_PROMPT] ?? ''), answerCacheKey, question.question, referenceText(question), answer].join('\u0000'))}`;
}

/** What the cache holds: an answer, or a grade (an unparseable grade is never cached). */
export interface CachedAnswer {
  text: string;
  model: string;
}
export interface CachedGrade extends Grade {
  model: string;
}
