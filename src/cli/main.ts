/**
 * Foldlab's command line: the same core as the app, run in Node.
 *   npm run cli -- inspect <file> [--format F] [--counter C] [--json]
 *   npm run cli -- compact <file> --strategy <id> [--option k=v ...] [--counter C] [--window N] [--upto I] [--from start|last-compaction] [--hook M.mjs [--hook-timeout MS]] [--json]
 *   npm run cli -- fold <file> [--option k=v ...] [--counter C] [--window N] [--from start|last-compaction] [--simulate a-b [--level 2|3|4] [--summarizer offline]] [--json]
 *   npm run cli -- eval <file|folder>... --strategies <id[:k=v,...]>,... [--window N] [--counter C] [--model M] [--from start|last-compaction] [--branches all|last] [--jobs N] [--hook M.mjs [--hook-timeout MS]] [--json|--csv|--md]
 *     (eval, compact and fold --simulate take --summarizer model --base-url <url> --model <name> [--api openai|anthropic]
 *      [--max-cost USD] [--dry-run] [--cache DIR]; eval also --judge [--judge-model M] [--judge-at compaction|final] [--concurrency N])
 *   npm run cli -- sweep <file|folder>... --strategy <id> --vary <option>=<from>..<to>[:<steps>] ... [--random N] [--window N] [--counter C] [--weights ...] [--jobs N] [--json|--csv|--md]
 *   npm run cli -- probes <file> [--format F] [--json]
 *   npm run cli -- session --dir <folder> (--base-url <url> --model <name> [--api openai|anthropic] | --script <replies.json>) --prompt "<message>"... --out <file.jsonl> [--idle-timeout S] [--connect-timeout S] [--reply-timeout S] [--json]
 */
import { parseReplayFrom, type ReplayFrom } from '../core/compaction/input-scope.ts';
import { parseKeyValues } from '../core/compaction/options.ts';
import { FORMAT_IDS, type FormatId } from '../core/import/types.ts';
import { STRATEGY_IDS } from '../core/strategies/index.ts';
import { parseCounterId } from '../core/tokens/counters.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import { runCompact, type CompactReport } from './compact.ts';
import { formatFold, runFold } from './fold.ts';
import { runEval } from './eval.ts';
import { parseEvalArgs } from './eval-args.ts';
import { formatEvalCsv, formatEvalMarkdown, formatEvalText } from './eval-format.ts';
import { evaluatedAny, formatEvalSkipped, nothingEvaluated } from './eval-files.ts';
import { formatInspect, runInspect } from './inspect.ts';
import { backupCheckMain } from './backup-check.ts';
import { probesMain } from './probes.ts';
import { measureRetention, retentionTable } from './retention-table.ts';
import { sessionMain } from './session.ts';
import { sweepMain } from './sweep-main.ts';
import { modelEvalMain } from './model-eval-main.ts';
import { checkModelFlags, defaultModelFlags, takeModelFlag, usesModel, type ModelFlags } from './model-flags.ts';
import { summaryCommandMain } from './model-summary-main.ts';

const USAGE = `usage:
  npm run cli -- inspect <file|folder> [--format ${FORMAT_IDS.join('|')}] [--counter o200k|cl100k|chars4|len3|chars] [--json]
  npm run cli -- compact <file> --strategy ${STRATEGY_IDS.join('|')} [--option key=value ...] [--counter C] [--window TOKENS] [--upto INDEX]
                      [--from start|last-compaction] [--unseen-prefix TOKENS|claude-code|pi] [--hook MODULE.mjs [--hook-timeout MS]] [--json]
                      [--summarizer model --base-url URL --model NAME [--api openai|anthropic] [--max-cost USD] [--dry-run] [--cache DIR]]
  npm run cli -- fold <file> [--option key=value ...] [--counter C] [--window TOKENS] [--from start|last-compaction]
                      [--simulate FROM-TO [--level 2|3|4] [--summarizer offline|model (with the model flags of compact)]] [--json]
  npm run cli -- eval <file|folder>... --strategies <id[:key=value,...]>,... [--window TOKENS] [--counter C]
                      [--model PRICE_MODEL] [--summarizer offline] [--from start|last-compaction] [--branches all|last] [--unseen-prefix TOKENS|claude-code|pi]
                      [--jobs N] [--hook MODULE.mjs [--hook-timeout MS]] [--json|--csv|--md]
                      [--summarizer model --base-url URL --model NAME [--api openai|anthropic] [--price-model PRICE_MODEL]]
                      [--judge [--judge-model NAME] [--judge-at compaction|final]] [--max-cost USD] [--dry-run] [--cache DIR] [--concurrency N]
                      (with a model the key is read from FOLDLAB_API_KEY, never from the command line; a local server needs none)
  (--from: where a replay starts; default start, the first entry of the branch, the source agent's own
   compactions left out. --branches: default all, every branch of a file; last, the last of each conversation.
   --unseen-prefix: tokens every call sends outside the transcript, system prompt and tool definitions;
   default what the recorded usage gives, else 0. --hook: beforeCompact / afterCompact run at each compaction
   of every configuration ("hooks": false in --configs-json leaves one out); a failing hook is noted on its row)
  npm run cli -- sweep <file|folder>... --strategy <id> --vary <option>=<from>..<to>[:<steps>] [--vary ...] [--random N [--seed S]]
                      [--option key=value ...] [--window TOKENS] [--counter C] [--weights artifact=2,constraint=3,task=3,error=2,identifier=1,decision=1]
                      [--tolerance 0.02] [--from start|last-compaction] [--unseen-prefix TOKENS|claude-code|pi] [--jobs N] [--json|--csv|--md]
  (sweep: every point of the strategy's settings replayed on every conversation found, offline summarizer;
   --vary takes a range from..to[:steps] (default 5 steps; whole numbers for an integer option), a list a,b,c,
   or a boolean or choice option's bare name for all its values; --random N draws N points from the same ranges
   (--seed, default 1). Retention is the weighted mean of each probe category's kept share (--weights sets some,
   the rest keep the defaults shown); the recommended point is the cheapest on the Pareto front within --tolerance
   of its best retention, with no overflowing call unless every point overflows)
  npm run cli -- probes <file> [--format ${FORMAT_IDS.join('|')}] [--json]
  npm run cli -- backup-check <file> [--json]
  npm run cli -- retention-table   (the README's retention table, measured again on the samples)
  npm run cli -- session --dir <folder> (--base-url <url> --model <name> [--api openai|anthropic] | --script <replies.json>)
                      [--strategy ID --option key=value ...] [--window TOKENS] [--counter C] [--gitignore] [--mentions reminder|paste] [--summarizer model|offline]
                      --prompt "<user message>" [--prompt "<next>" ...] --out <session.jsonl> [--idle-timeout S] [--connect-timeout S] [--reply-timeout S] [--json]
                      (the API key is read from FOLDLAB_API_KEY, never from the command line)
  (a Cursor chat store or an opencode.db holds many conversations: every command reads one as state.vscdb#<composerId> or opencode.db#<sessionId>)`;

const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);

class UsageError extends Error {
  override name = 'UsageError';
}

interface Args {
  command: 'inspect' | 'compact' | 'fold';
  file: string;
  format?: FormatId;
  counter: string;
  json: boolean;
  strategy?: string;
  options: string[];
  window: number;
  upTo?: number;
  simulate?: string;
  level?: number;
  summarizer?: string;
  hook?: string;
  hookTimeout?: number;
  from?: ReplayFrom;
  unseenPrefix?: string;
  /** `--summarizer model` and the flags that go with it (model-flags.ts). */
  modelFlags: ModelFlags;
}

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const args: Omit<Args, 'command' | 'file'> = { counter: '', json: false, options: [], window: 200_000, modelFlags: defaultModelFlags() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    const integer = (name: string): number => {
      const raw = value();
      const n = Number(raw.replace(/_/g, ''));
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} must be a whole number; got "${raw}"`);
      return n;
    };
    if (arg === '--json') args.json = true;
    else if (arg === '--format') {
      const format = value();
      if (!(FORMAT_IDS as string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMAT_IDS.join(', ')}; got "${format}"`);
      args.format = format as FormatId;
    } else if (arg === '--counter') args.counter = value();
    else if (arg === '--strategy') args.strategy = value();
    else if (arg === '--option') args.options.push(value());
    else if (arg === '--window') args.window = integer('--window');
    else if (arg === '--upto') args.upTo = integer('--upto');
    else if (arg === '--simulate') args.simulate = value();
    else if (arg === '--level') args.level = integer('--level');
    else if (arg === '--model') args.modelFlags.model = value();
    else if (takeModelFlag(args.modelFlags, arg, value)) {
      if (arg === '--summarizer') args.summarizer = args.modelFlags.summarizer;
    }
    else if (arg === '--hook') args.hook = value();
    else if (arg === '--hook-timeout') args.hookTimeout = integer('--hook-timeout');
    else if (arg === '--from') {
      try {
        args.from = parseReplayFrom(value());
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    else if (arg === '--unseen-prefix') args.unseenPrefix = value();
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  const [command, file] = positional;
  if (command !== 'inspect' && command !== 'compact' && command !== 'fold') throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
  if (!file) throw new UsageError('missing <file>');
  if (command === 'compact' && !args.strategy) throw new UsageError('compact needs --strategy');
  if (command === 'inspect' && usesModel(args.modelFlags)) throw new UsageError('inspect sends nothing to a model');
  checkModelFlags(args.modelFlags, false);
  return { command, file, ...args };
}

function formatCompact(report: CompactReport): string {
  return [
    `strategy      ${report.strategy}`,
    `trigger       ${report.trigger.fire ? 'fires' : 'does not fire'}: ${report.trigger.detail}`,
    `cut           ${report.cut ? `entry ${report.cut.index} (${report.cut.entryId}): ${report.cut.rule}` : 'none'}`,
    ...(report.nothingToDo ? [`nothing to do ${report.nothingToDo}`] : []),
    `tokens        ${report.tokensBefore.toLocaleString('en-US')} -> ${report.tokensAfter.toLocaleString('en-US')} in the transcript (${report.counter}; planned ${report.plannedTokensAfter.toLocaleString('en-US')})`,
    `sent          ${report.sentTokensBefore.toLocaleString('en-US')} -> ${report.sentTokensAfter.toLocaleString('en-US')} with ${report.unseenPrefixTokens.toLocaleString('en-US')} not in the transcript: ${report.change}`,
    `unseen prefix ${report.unseenPrefix.note}`,
    `entries       ${report.counts.input} in: ${report.counts.summarized} summarized, ${report.counts.kept} kept, ${report.counts.compressed} compressed, ${report.counts.dropped} dropped`,
    `orphans       ${report.orphanToolCalls} calls, ${report.orphanToolResults} results`,
    ...(report.hooks.length > 0 ? [`hooks         ${report.hooks.join(', ')}`] : []),
    ...report.notes.map((note) => `note          ${note}`),
    '',
    report.summary,
  ].join('\n');
}

async function evalMain(argv: string[]): Promise<void> {
  let args: ReturnType<typeof parseEvalArgs>;
  try {
    args = parseEvalArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    if (usesModel(args.modelFlags)) {
      process.exitCode = await modelEvalMain(args, args.modelFlags, (text) => process.stdout.write(text), (text) => process.stderr.write(text));
      return;
    }
    const report = await runEval(args);
    const text = args.output === 'json' ? JSON.stringify(report, null, 2) : args.output === 'csv' ? formatEvalCsv(report) : args.output === 'md' ? formatEvalMarkdown(report) : formatEvalText(report);
    process.stdout.write(`${text}\n`);
    // Skipped files: in the JSON report, after a table, on stderr beside a CSV (which stays CSV).
    const skipped = formatEvalSkipped(report);
    if (skipped !== '' && args.output !== 'json') (args.output === 'csv' ? process.stderr : process.stdout).write(`${skipped}\n`);
    if (!evaluatedAny(report)) {
      process.stderr.write(`${nothingEvaluated(args.paths, report.skipped, report.files)}\n`);
      process.exitCode = 1;
    }
  } catch (error) {
    const err = error as Error & { code?: string; path?: string };
    process.stderr.write(`${err.code === 'ENOENT' ? `no such file or folder: ${err.path ?? ''}` : `${err.name}: ${err.message}`}\n`);
    process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'eval') return evalMain(process.argv.slice(3));
  if (process.argv[2] === 'backup-check') return backupCheckMain(process.argv.slice(3), USAGE);
  if (process.argv[2] === 'sweep') return sweepMain(process.argv.slice(3), USAGE);
  if (process.argv[2] === 'probes') return probesMain(process.argv.slice(3), USAGE);
  if (process.argv[2] === 'session') return sessionMain(process.argv.slice(3), USAGE);
  if (process.argv[2] === 'retention-table') return void process.stdout.write(`${retentionTable(await measureRetention())}\n`);
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    // o200k unless --counter says otherwise, for every command: the app's default, so both give the same numbers.
    const counter = parseCounterId(args.counter || 'o200k');
    if (args.command === 'fold') {
      const simulate = { ...(args.simulate !== undefined ? { simulate: args.simulate } : {}), ...(args.level !== undefined ? { level: args.level } : {}), ...(args.summarizer !== undefined ? { summarizer: args.summarizer } : {}) };
      const fold = (model?: Summarizer) => runFold({ file: args.file, options: parseKeyValues(args.options), counter, contextWindow: args.window, ...simulate, ...(args.from ? { from: args.from } : {}), ...(model ? { model } : {}) });
      if (usesModel(args.modelFlags)) {
        process.exitCode = await summaryCommandMain({ flags: args.modelFlags, counter, json: args.json, run: fold, format: formatFold }, write(process.stdout), write(process.stderr));
        return;
      }
      const report = await fold();
      process.stdout.write(`${args.json ? JSON.stringify(report, null, 2) : formatFold(report)}\n`);
    } else if (args.command === 'inspect') {
      const report = await runInspect(args.file, counter, args.format);
      process.stdout.write(`${args.json ? JSON.stringify(report, null, 2) : formatInspect(report)}\n`);
    } else {
      const compact = (summarizer?: Summarizer) => runCompact({
        file: args.file,
        strategy: args.strategy ?? '',
        options: parseKeyValues(args.options),
        counter,
        contextWindow: args.window,
        ...(args.format ? { format: args.format } : {}),
        ...(args.upTo !== undefined ? { upTo: args.upTo } : {}),
        ...(args.from ? { from: args.from } : {}),
        ...(args.unseenPrefix !== undefined ? { unseenPrefix: args.unseenPrefix } : {}),
        ...(args.hook !== undefined ? { hook: args.hook } : {}),
        ...(args.hookTimeout !== undefined ? { hookTimeoutMs: args.hookTimeout } : {}),
        ...(summarizer ? { summarizer } : {}),
      });
      if (usesModel(args.modelFlags)) {
        process.exitCode = await summaryCommandMain({ flags: args.modelFlags, counter, json: args.json, run: compact, format: formatCompact }, write(process.stdout), write(process.stderr));
        return;
      }
      const report = await compact();
      process.stdout.write(`${args.json ? JSON.stringify(report, null, 2) : formatCompact(report)}\n`);
    }
  } catch (error) {
    const err = error as Error & { code?: string };
    process.stderr.write(`${err.code === 'ENOENT' ? `no such file: ${args.file}` : `${err.name}: ${err.message}`}\n`);
    process.exitCode = 1;
  }
}

void main();
