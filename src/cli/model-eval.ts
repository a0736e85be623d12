/**
 * `eval` with a real model (`--summarizer model`, `--judge`): the replays run first with nothing
 * sent, to estimate the requests, tokens and cost (model-estimate.ts), which are printed; then
 * `--dry-run` stops, `--max-cost` refuses an estimate above the cap, and otherwise the replays run
 * again with the model writing every summary and, with `--judge`, answering and grading the
 * questions of each configuration (judge-run.ts). Every request goes through the page's own
 * remote summarizer (src/llm: retries, timeouts, the per-request fence) behind the model client
 * (cache, concurrency, tally, the stop on a spend or quota limit).
 */
import { getPrompt } from '../core/compaction/prompts.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import { priceFor, type Price } from '../core/pricing.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter } from '../core/tokens/counters.ts';
import { createRemoteSummarizerWith, SUMMARIZER_SYSTEM_PROMPT_ID } from '../llm/remote-summarizer.ts';
import { retryNotice } from '../llm/retry-notice.ts';
import { runEval, type EvalArgs, type EvalReport } from './eval.ts';
import { estimateFileJudge, planFileJudge, runFileJudge } from './judge-run.ts';
import { loadPrompts } from './load.ts';
import { RequestCache } from './model-cache.ts';
import { ModelClient } from './model-client.ts';
import { capRefusal, EstimatePart, estimatingSummarizer, formatEstimate, totalEstimate, type ModelEstimate } from './model-estimate.ts';
import { modelIdentity, remoteOf, type ModelFlags } from './model-flags.ts';
import type { ModelRunReport } from './model-report.ts';

export interface ModelIo {
  env: NodeJS.ProcessEnv;
  /** Hears the estimate, retry waits and the stop (stderr). */
  log: (line: string) => void;
  /** Hears a progress line after each request; absent under --json. */
  progress?: (line: string) => void;
  /** Default: the global fetch (tests may point it elsewhere; the servers they start are real). */
  fetch?: typeof fetch;
  /** Waits before a retry (default: a timer); a test records the wait the server asked for instead of sleeping through it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The outcome: the estimate always; the report unless `--dry-run` or the cap stopped it (`refused` says why). */
export interface ModelEvalOutcome {
  estimate: ModelEstimate;
  report?: EvalReport & { model: ModelRunReport };
  refused?: string;
}

/** One model's name, identity in the cache, and price. */
interface ModelRef {
  name: string;
  identity: string;
  price: Price | undefined;
}

export async function runModelEval(args: EvalArgs, flags: ModelFlags, io: ModelIo): Promise<ModelEvalOutcome> {
  const prompts = loadPrompts();
  const systemPrompt = getPrompt(prompts, SUMMARIZER_SYSTEM_PROMPT_ID).trim();
  const counter = await getCounter(args.counter);
  const cache = new RequestCache(flags.cache, prompts);
  const ref = (name: string): ModelRef => ({ name, identity: modelIdentity(flags, name), price: priceFor(name)?.price });
  const summaries = flags.summarizer === 'model' ? ref(flags.model!) : undefined;
  const judge = flags.judge ? ref(flags.judgeModel ?? flags.model!) : undefined;

  // 1. The estimate: the same replays, nothing sent.
  const summaryPart = summaries ? new EstimatePart('summaries', summaries.name, summaries.price) : undefined;
  const judgePart = judge ? new EstimatePart('judge', judge.name, judge.price) : undefined;
  await runEval({
    ...args, jobs: 1,
    modelRun: {
      summarizer: summaries && summaryPart ? estimatingSummarizer(summaryPart, cache, summaries.identity, SUMMARIZER_SYSTEM_PROMPT_ID, systemPrompt, counter) : createOfflineSummarizer(),
      ...(judge && judgePart ? {
        judge: async (output, journal) => {
          const plans = await planFileJudge({ output, journal, at: flags.judgeAt, model: judge.identity, prompts });
          judgePart.add(estimateFileJudge(plans, cache, judge.identity, SUMMARIZER_SYSTEM_PROMPT_ID, prompts, counter, judge.price));
          return [];
        },
      } : {}),
    },
  });
  const estimate = totalEstimate([summaryPart, judgePart].filter((part) => part !== undefined), counter.label);
  if (flags.dryRun) return { estimate };
  io.log(formatEstimate(estimate));
  const refused = capRefusal(estimate, flags.maxCost);
  if (refused) return { estimate, refused };

  // 2. The run.
  const client = new ModelClient({ cache, concurrency: flags.concurrency, total: estimate.requests + estimate.cached, ...(io.progress ? { onProgress: io.progress } : {}) });
  const remote = (model: ModelRef, what: string): Summarizer => client.wrap(createRemoteSummarizerWith(remoteOf(flags, model.name, io.env), systemPrompt, {
    ...(io.fetch ? { fetch: io.fetch } : {}),
    retry: { onRetry: (wait) => io.log(retryNotice(wait, `a request (${what})`)), ...(io.sleep ? { sleep: io.sleep } : {}) },
  }), model.identity, model.price);
  const judgeSummarizer = judge ? remote(judge, 'the judge') : undefined;
  const report = await runEval({
    ...args, jobs: 1,
    modelRun: {
      summarizer: summaries ? remote(summaries, 'a summary') : createOfflineSummarizer(),
      ...(judge && judgeSummarizer ? {
        judge: async (output, journal) => {
          const plans = await planFileJudge({ output, journal, at: flags.judgeAt, model: judge.identity, prompts });
          return runFileJudge(plans, output.results.length, judgeSummarizer, prompts, flags.judgeAt, judge.name);
        },
      } : {}),
    },
  });
  if (client.stopped !== undefined) io.log(`Stopped: ${client.stopped} What was done is in the report${flags.cache !== undefined ? ` and in ${flags.cache}` : ''}.`);
  return {
    estimate,
    report: {
      ...report,
      model: {
        summarizer: summaries?.identity ?? 'offline',
        ...(judge ? { judge: judge.identity, judgeAt: flags.judgeAt } : {}),
        estimate,
        done: client.tally,
        ...(client.stopped !== undefined ? { stopped: client.stopped } : {}),
        ...(flags.cache !== undefined ? { cache: { dir: flags.cache, unreadable: cache.unreadable } } : {}),
      },
    },
  };
}

