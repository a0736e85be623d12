/**
 * `eval` with a model, at the terminal: the estimate on stderr before the first request (on
 * stdout, alone, with `--dry-run`), progress on stderr unless `--json`, the report on stdout with
 * the judged table after the usual ones, and exit code 1 when the cap refused the run or a spend
 * or quota limit stopped it (the partial report is still printed).
 */
import type { EvalArgs } from './eval.ts';
import type { EvalOutput } from './eval-args.ts';
import { formatEvalCsv, formatEvalMarkdown, formatEvalText } from './eval-format.ts';
import { formatJudgedMarkdown, formatJudgedProblems, formatJudgedText } from './eval-judged-format.ts';
import { formatEstimate } from './model-estimate.ts';
import { runModelEval, type ModelIo } from './model-eval.ts';
import type { ModelFlags } from './model-flags.ts';

/** Runs it and writes to `out` / `err`; returns the exit code. */
export async function modelEvalMain(args: EvalArgs & { output: EvalOutput }, flags: ModelFlags, out: (text: string) => void, err: (text: string) => void, io: Partial<ModelIo> = {}): Promise<number> {
  const outcome = await runModelEval(args, flags, {
    env: io.env ?? process.env,
    log: io.log ?? ((line) => err(`${line}\n`)),
    ...(args.output !== 'json' ? { progress: io.progress ?? ((line) => err(`${line}\n`)) } : {}),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.sleep ? { sleep: io.sleep } : {}),
  });
  if (flags.dryRun) {
    out(`${args.output === 'json' ? JSON.stringify({ estimate: outcome.estimate }, null, 2) : formatEstimate(outcome.estimate)}\n`);
    return 0;
  }
  if (outcome.refused !== undefined || !outcome.result || !outcome.model) {
    err(`${formatEstimate(outcome.estimate)}\n${outcome.refused ?? 'nothing was run'}\n`);
    return 1;
  }
  const report = outcome.result;
  const judged = outcome.model.judge !== undefined;
  let text: string;
  if (args.output === 'json') text = JSON.stringify(report, null, 2);
  else if (args.output === 'csv') text = formatEvalCsv(report);
  else if (args.output === 'md') text = `${formatEvalMarkdown(report)}${judged ? `\n\n${formatJudgedMarkdown(report)}` : ''}`;
  else text = `${formatEvalText(report)}${judged ? `\n${formatJudgedText(report)}` : ''}`;
  out(`${text}\n`);
  if (judged && args.output === 'csv') err('The judged grades are not in --csv (its columns are the replay figures): see them with --json or --md.\n');
  const problems = judged ? formatJudgedProblems(report) : '';
  if (problems !== '') err(`${problems}\n`);
  return outcome.model.stopped !== undefined ? 1 : 0;
}
