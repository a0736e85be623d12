/**
 * The orchestrator: parse options, plan, ask the injected Summarizer for what the plan needs (in
 * parallel, under the strategy's timeout combined with the user's cancel), assemble the context and
 * write the structured log record (B4). It never touches the journal: on any failure the caller
 * has nothing to undo.
 */
import type { Entry } from '../journal/entry.ts';
import { getPrompt, renderTemplate, type PromptLibrary } from './prompts.ts';
import { serializeEntries, wrapTranscript } from './serialize.ts';
import type { Options, Strategy } from './strategy.ts';
import {
  compactionCancelled, SummaryTimeoutError, type Summarizer, type SummaryResponse,
} from './summarizer.ts';
import { countFates, countKeptItems } from './plan-counts.ts';
import { taskRequest } from './task-request.ts';
import type { CompactedContext, CompactionInput, Plan, SummaryTask } from './types.ts';
import { isCancelled } from '../cancel.ts';

/** The seeds' summary timeout (seed 002 §E2: 120 s). */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 120_000;

/** P8: hooks around a compaction. */
export interface CompactionHooks {
  /** Return `{cancel: true}` to stop, or `{summary}` to use your own text for every task. */
  beforeCompact?(plan: Plan): Promise<{ cancel?: boolean; summary?: string } | void> | { cancel?: boolean; summary?: string } | void;
  afterCompact?(outcome: CompactionOutcome): void;
}

export interface CompactionProgress {
  phase: 'planning' | 'summarizing' | 'assembling' | 'done';
  done: number;
  total: number;
  /** Text streamed so far by a summarizer that streams (task id -> text). */
  partial?: string;
}

export interface RunCompactionArgs {
  strategy: Strategy;
  input: CompactionInput;
  rawOptions?: Record<string, unknown>;
  summarizer: Summarizer;
  prompts: PromptLibrary;
  signal?: AbortSignal;
  timeoutMs?: number;
  hooks?: CompactionHooks;
  onProgress?: (progress: CompactionProgress) => void;
  /** Wall clock for durations (injectable). */
  clock?: () => number;
  /** How an entry range is serialized for the prompt (default: the strategy's own, else serializeEntries). */
  serialize?: (entries: readonly Entry[]) => string;
}

/** B4: the structured record of one run (`context_management`). */
export interface CompactionRecord {
  event: 'context_management';
  strategy: string;
  options: Options;
  trigger: Plan['trigger'];
  truncation_applied: boolean;
  summary_applied: boolean;
  dropped_messages: number;
  kept_messages: number;
  summarized_messages: number;
  compressed_messages: number;
  tokens_before: number;
  tokens_after: number;
  counter: string;
  summarizer: string;
  summarizer_model: string;
  summary_usage: { input: number; output: number };
  prompts: string[];
  /** Version of each prompt file used: FNV-1a hash of its text, so a changed prompt is visible in the log. */
  prompt_versions: Record<string, string>;
  duration_ms: number;
  at: number;
  notes: string[];
}

export interface CompactionOutcome {
  plan: Plan;
  context: CompactedContext;
  /** Summary texts by task id. */
  summaries: Record<string, string>;
  record: CompactionRecord;
}

export async function runCompaction(args: RunCompactionArgs): Promise<CompactionOutcome> {
  const clock = args.clock ?? Date.now;
  const started = clock();
  const { strategy, input } = args;
  const options = strategy.parse(args.rawOptions ?? {});
  args.onProgress?.({ phase: 'planning', done: 0, total: 1 });
  const plan = strategy.plan(input, options);
  if (args.signal?.aborted) throw compactionCancelled();

  const hook = await args.hooks?.beforeCompact?.(plan);
  if (hook?.cancel) throw compactionCancelled();

  const summaries = new Map<string, string>();
  const responses: SummaryResponse[] = [];
  let context: CompactedContext;
  try {
    if (hook?.summary !== undefined) {
      for (const task of plan.summaries) summaries.set(task.id, hook.summary);
    } else if (plan.summaries.length > 0) {
      const done = { n: 0 };
      args.onProgress?.({ phase: 'summarizing', done: 0, total: plan.summaries.length });
      const results = await Promise.all(
        plan.summaries.map(async (task) => {
          const response = await summarizeTask(args, task);
          done.n++;
          args.onProgress?.({ phase: 'summarizing', done: done.n, total: plan.summaries.length });
          return [task.id, response] as const;
        }),
      );
      for (const [id, response] of results) {
        summaries.set(id, response.text);
        responses.push(response);
      }
    }
    args.onProgress?.({ phase: 'assembling', done: 0, total: 1 });
    context = strategy.assemble(input, plan, summaries, options);
  } catch (error) {
    if (isCancelled(error) || args.signal?.aborted) throw compactionCancelled();
    const fallback = strategy.fallback?.(input, plan, options, error as Error);
    if (!fallback) throw error;
    context = fallback;
    summaries.clear();
  }

  const fates = countFates(plan.fates);
  const record: CompactionRecord = {
    event: 'context_management',
    strategy: strategy.id,
    options,
    trigger: plan.trigger,
    truncation_applied: context.truncationApplied,
    summary_applied: context.summaryApplied,
    dropped_messages: context.summaryApplied ? fates.drop : fates.drop + fates.summarize,
    kept_messages: countKeptItems(context.entries),
    summarized_messages: context.summaryApplied ? fates.summarize : 0,
    compressed_messages: fates.compress,
    tokens_before: plan.tokensBefore,
    tokens_after: context.tokensAfter,
    counter: input.counter.label,
    summarizer: hook?.summary !== undefined ? 'hook' : args.summarizer.id,
    summarizer_model: responses[0]?.model ?? (hook?.summary !== undefined ? 'hook' : 'none'),
    summary_usage: responses.reduce((sum, r) => ({ input: sum.input + (r.usage?.input ?? 0), output: sum.output + (r.usage?.output ?? 0) }), { input: 0, output: 0 }),
    prompts: promptIds(plan, args.summarizer),
    prompt_versions: Object.fromEntries(promptIds(plan, args.summarizer).map((id) => [id, promptVersion(args.prompts[id] ?? '')])),
    duration_ms: Math.max(0, clock() - started),
    at: input.now,
    notes: [...plan.notes, ...context.notes],
  };
  const outcome: CompactionOutcome = { plan, context, summaries: Object.fromEntries(summaries), record };
  args.onProgress?.({ phase: 'done', done: 1, total: 1 });
  args.hooks?.afterCompact?.(outcome);
  return outcome;
}

/** The prompt files a run used: each task's prompt, its sections, and the summarizer's own system prompt. */
function promptIds(plan: Plan, summarizer: Summarizer): string[] {
  const ids = plan.summaries.flatMap((task) => [task.prompt, ...Object.values(task.sections ?? {})]);
  if (plan.summaries.length > 0 && summarizer.systemPrompt) ids.push(summarizer.systemPrompt);
  return [...new Set(ids)];
}

/** FNV-1a (32-bit) of a prompt's text, as 8 hex digits. */
export function promptVersion(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

async function summarizeTask(args: RunCompactionArgs, task: SummaryTask): Promise<SummaryResponse> {
  const request = taskRequest(args.input, task);
  const entries = request.entries;
  const serialize = args.serialize ?? args.strategy.serialize?.bind(args.strategy) ?? serializeEntries;
  const serialized = serialize(entries);
  const vars: Record<string, string> = {
    conversation: wrapTranscript(serialized),
    previous_summary: task.previousSummary ?? '',
    ...task.vars,
  };
  for (const [name, id] of Object.entries(task.sections ?? {})) vars[name] = renderTemplate(getPrompt(args.prompts, id), vars);
  const prompt = renderTemplate(getPrompt(args.prompts, task.prompt), vars);
  const timeoutMs = args.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new SummaryTimeoutError(timeoutMs)), timeoutMs);
  const signal = args.signal ? AbortSignal.any([args.signal, timeout.signal]) : timeout.signal;
  try {
    const pending = args.summarizer.summarize({ ...request, prompt, serialized, signal });
    // Whatever the summarizer does with the signal, a timeout or cancel ends the wait.
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(args.signal?.aborted ? compactionCancelled() : new SummaryTimeoutError(timeoutMs));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    return await Promise.race([pending, aborted]);
  } finally {
    clearTimeout(timer);
  }
}
