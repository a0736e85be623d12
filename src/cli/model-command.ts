/**
 * How a command runs with a model (`eval`, `compact`, `fold`): the prompts and system message read
 * from prompts/, the cache, the models named by the flags with their prices, the stand-in
 * summarizers of the estimate pass, and the live summarizers of the real pass: the page's remote
 * summarizer (src/llm) behind the model client, its retry waits told to `log`.
 */
import { getPrompt, type PromptLibrary } from '../core/compaction/prompts.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import { priceFor, type Price } from '../core/pricing.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter, type CounterId, type TokenCounter } from '../core/tokens/counters.ts';
import { createRemoteSummarizerWith, SUMMARIZER_SYSTEM_PROMPT_ID } from '../llm/remote/remote-summarizer.ts';
import { retryNotice } from '../llm/remote/retry-notice.ts';
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
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Waits before a retry (default: a timer); a test records the wait the server asked for instead of sleeping through it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** One model's name, identity in the cache, and price. */
export interface ModelRef {
  name: string;
  identity: string;
  price: Price | undefined;
}

/** What both passes of a model command share. */
export interface ModelSetup {
  flags: ModelFlags;
  prompts: PromptLibrary;
  systemPrompt: string;
  counter: TokenCounter;
  cache: RequestCache;
  /** The model that writes the summaries (`--summarizer model`). */
  summaries?: ModelRef;
  /** The model that answers and grades (`--judge`). */
  judge?: ModelRef;
}

export async function modelSetup(flags: ModelFlags, counterId: CounterId): Promise<ModelSetup> {
  const prompts = loadPrompts();
  const ref = (name: string): ModelRef => ({ name, identity: modelIdentity(flags, name), price: priceFor(name)?.price });
  return {
    flags,
    prompts,
    systemPrompt: getPrompt(prompts, SUMMARIZER_SYSTEM_PROMPT_ID).trim(),
    counter: await getCounter(counterId),
    cache: new RequestCache(flags.cache, prompts),
    ...(flags.summarizer === 'model' ? { summaries: ref(flags.model!) } : {}),
    ...(flags.judge ? { judge: ref(flags.judgeModel ?? flags.model!) } : {}),
  };
}

/** The estimate pass's parts and the summarizer that stands in for the summary model (the offline one without a model). */
export function estimatePass(setup: ModelSetup): { summarizer: Summarizer; summaries?: EstimatePart; judge?: EstimatePart; total: () => ModelEstimate } {
  const summaries = setup.summaries ? new EstimatePart('summaries', setup.summaries.name, setup.summaries.price) : undefined;
  const judge = setup.judge ? new EstimatePart('judge', setup.judge.name, setup.judge.price) : undefined;
  return {
    summarizer: summaries && setup.summaries ? estimatingSummarizer(summaries, setup.cache, setup.summaries.identity, SUMMARIZER_SYSTEM_PROMPT_ID, setup.systemPrompt, setup.counter) : createOfflineSummarizer(),
    ...(summaries ? { summaries } : {}),
    ...(judge ? { judge } : {}),
    total: () => totalEstimate([summaries, judge].filter((part) => part !== undefined), setup.counter.label),
  };
}

/** The real pass: the model client (total from the estimate) and the live summarizer of a model. */
export function livePass(setup: ModelSetup, io: ModelIo, estimate: ModelEstimate): { client: ModelClient; summarizer: (model: ModelRef, what: string) => Summarizer } {
  const client = new ModelClient({ cache: setup.cache, concurrency: setup.flags.concurrency, total: estimate.requests + estimate.cached, ...(io.progress ? { onProgress: io.progress } : {}) });
  const summarizer = (model: ModelRef, what: string): Summarizer => client.wrap(createRemoteSummarizerWith(remoteOf(setup.flags, model.name, io.env), setup.systemPrompt, {
    ...(io.fetch ? { fetch: io.fetch } : {}),
    retry: { onRetry: (wait) => io.log(retryNotice(wait, `a request (${what})`)), ...(io.sleep ? { sleep: io.sleep } : {}) },
  }), model.identity, model.price);
  return { client, summarizer };
}

/** After the estimate: undefined to go on, or why not (`dryRun` when only the estimate was asked for); the estimate is logged when the run goes on. */
export function gate(setup: ModelSetup, estimate: ModelEstimate, io: ModelIo): { refused: string } | { dryRun: true } | undefined {
  if (setup.flags.dryRun) return { dryRun: true };
  const refused = capRefusal(estimate, setup.flags.maxCost);
  if (refused) return { refused };
  io.log(formatEstimate(estimate));
  return undefined;
}

/** The `model` part of a report, and the stop told to `log`. */
export function modelReport(setup: ModelSetup, estimate: ModelEstimate, client: ModelClient, io: ModelIo): ModelRunReport {
  const { flags } = setup;
  if (client.stopped !== undefined) io.log(`Stopped: ${client.stopped} What was done is in the report${flags.cache !== undefined ? ` and in ${flags.cache}` : ''}.`);
  return {
    summarizer: setup.summaries?.identity ?? 'offline',
    ...(setup.judge ? { judge: setup.judge.identity, judgeAt: flags.judgeAt } : {}),
    estimate,
    done: client.tally,
    ...(client.stopped !== undefined ? { stopped: client.stopped } : {}),
    ...(flags.cache !== undefined ? { cache: { dir: flags.cache, unreadable: setup.cache.unreadable } } : {}),
  };
}

/** The outcome of a model command: the estimate always; the result unless `--dry-run` or the cap stopped it (`refused` says why). */
export interface ModelOutcome<T> {
  estimate: ModelEstimate;
  result?: T;
  model?: ModelRunReport;
  refused?: string;
}

/**
 * A command whose only model requests are summaries (`compact`, `fold --simulate`): `run` once
 * with the stand-in summarizer to estimate, then, unless stopped there, with the model.
 */
export async function runSummaryCommand<T>(flags: ModelFlags, counterId: CounterId, io: ModelIo, run: (summarizer: Summarizer) => Promise<T>): Promise<ModelOutcome<T>> {
  const setup = await modelSetup(flags, counterId);
  const estimating = estimatePass(setup);
  await run(estimating.summarizer);
  const estimate = estimating.total();
  const stop = gate(setup, estimate, io);
  if (stop) return { estimate, ...('refused' in stop ? { refused: stop.refused } : {}) };
  const live = livePass(setup, io, estimate);
  const result = await run(setup.summaries ? live.summarizer(setup.summaries, 'a summary') : createOfflineSummarizer());
  return { estimate, result, model: modelReport(setup, estimate, live.client, io) };
}
