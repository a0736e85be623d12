/**
 * `compact` and `fold --simulate` with `--summarizer model`, at the terminal: the estimate on
 * stderr before the first request (alone on stdout with `--dry-run`), `--max-cost` refusing with
 * exit code 1 and nothing sent, progress on stderr unless `--json`, then the command's own report
 * with the run's `model` part (what was sent, from the cache, at what cost).
 */
import type { Summarizer } from '../core/compaction/summarizer.ts';
import type { CounterId } from '../core/tokens/counters.ts';
import { runSummaryCommand, type ModelIo } from './model-command.ts';
import { formatEstimate } from './model-estimate.ts';
import type { ModelFlags } from './model-flags.ts';

export interface SummaryCommand<T> {
  flags: ModelFlags;
  counter: CounterId;
  json: boolean;
  run: (summarizer: Summarizer) => Promise<T>;
  format: (result: T) => string;
}

/** Runs it and writes to `out` / `err`; returns the exit code. */
export async function summaryCommandMain<T extends object>(command: SummaryCommand<T>, out: (text: string) => void, err: (text: string) => void, io: Partial<ModelIo> = {}): Promise<number> {
  const outcome = await runSummaryCommand(command.flags, command.counter, {
    env: io.env ?? process.env,
    log: io.log ?? ((line) => err(`${line}\n`)),
    ...(!command.json ? { progress: io.progress ?? ((line) => err(`${line}\n`)) } : {}),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(io.sleep ? { sleep: io.sleep } : {}),
  }, command.run);
  if (command.flags.dryRun) {
    out(`${command.json ? JSON.stringify({ estimate: outcome.estimate }, null, 2) : formatEstimate(outcome.estimate)}\n`);
    return 0;
  }
  if (outcome.refused !== undefined || !outcome.result || !outcome.model) {
    err(`${formatEstimate(outcome.estimate)}\n${outcome.refused ?? 'nothing was run'}\n`);
    return 1;
  }
  const { done } = outcome.model;
  out(`${command.json ? JSON.stringify({ ...outcome.result, model: outcome.model }, null, 2) : `${command.format(outcome.result)}\nmodel         ${outcome.model.summarizer}: ${done.sent} requests sent, ${done.cached} from the cache, ${done.input.toLocaleString('en-US')} in, ${done.output.toLocaleString('en-US')} out`}\n`);
  return outcome.model.stopped !== undefined ? 1 : 0;
}
