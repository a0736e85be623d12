/**
 * `eval` with a real model (`--summarizer model`, `--judge`): the replays run first with nothing
 * sent, to estimate the requests, tokens and cost (model-estimate.ts), which are printed; then
 * `--dry-run` stops, `--max-cost` refuses an estimate above the cap, and otherwise the replays run
 * again with the model writing every summary and, with `--judge`, answering and grading the
 * questions of each configuration (judge-run.ts). Every request goes through the page's own
 * remote summarizer (src/llm: retries, timeouts, the per-request fence) behind the model client
 * (cache, concurrency, tally, the stop on a spend or quota limit).
 */
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { SUMMARIZER_SYSTEM_PROMPT_ID } from '../llm/remote/remote-summarizer.ts';
import { runEval, type EvalArgs, type EvalReport } from './eval.ts';
import { estimateFileJudge, planFileJudge, runFileJudge } from './judge-run.ts';
import { estimatePass, gate, livePass, modelReport, modelSetup, type ModelIo, type ModelOutcome } from './model-command.ts';
import type { ModelFlags } from './model-flags.ts';

export type { ModelIo } from './model-command.ts';

export async function runModelEval(args: EvalArgs, flags: ModelFlags, io: ModelIo): Promise<ModelOutcome<EvalReport>> {
  const setup = await modelSetup(flags, args.counter);
  const { judge, prompts, cache, counter } = setup;

  // 1. The estimate: the same replays, nothing sent.
  const estimating = estimatePass(setup);
  await runEval({
    ...args, jobs: 1,
    modelRun: {
      summarizer: estimating.summarizer,
      ...(judge ? {
        judge: async (output, journal) => {
          const plans = await planFileJudge({ output, journal, at: flags.judgeAt, model: judge.identity, prompts });
          estimating.judge?.add(estimateFileJudge(plans, cache, judge.identity, SUMMARIZER_SYSTEM_PROMPT_ID, prompts, counter, judge.price));
          return [];
        },
      } : {}),
    },
  });
  const estimate = estimating.total();
  const stop = gate(setup, estimate, io);
  if (stop) return { estimate, ...('refused' in stop ? { refused: stop.refused } : {}) };

  // 2. The run.
  const live = livePass(setup, io, estimate);
  const judgeSummarizer = judge ? live.summarizer(judge, 'the judge') : undefined;
  const report = await runEval({
    ...args, jobs: 1,
    modelRun: {
      // A replay's summaries follow one another: files side by side keep the requests in flight.
      files: flags.concurrency,
      summarizer: setup.summaries ? live.summarizer(setup.summaries, 'a summary') : createOfflineSummarizer(),
      ...(judge && judgeSummarizer ? {
        judge: async (output, journal) => {
          const plans = await planFileJudge({ output, journal, at: flags.judgeAt, model: judge.identity, prompts });
          return runFileJudge(plans, output.results.length, judgeSummarizer, prompts, flags.judgeAt, judge.name);
        },
      } : {}),
    },
  });
  const model = modelReport(setup, estimate, live.client, io);
  return { estimate, result: { ...report, model }, model };
}
