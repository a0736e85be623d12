/**
 * `eval <file|folder>... --strategies <id[:k=v,...]>,...`: replays every transcript found under
 * each strategy configuration with the offline summarizer (or a model's: model-eval.ts) and scores what survived, the same
 * computation as the app's Compare tab. A folder is searched for supported files (Claude Code
 * subagent files included, each `.meta.json` read with its transcript); a file holding several root
 * conversations is evaluated per conversation, and each subagent thread gets rows of its own that
 * name its parent (eval-threads.ts). Every file found but not read is listed with the reason.
 * `--jobs N` splits the files over N child processes.
 */
import { spawn } from 'node:child_process';
import { relative, resolve } from 'node:path';
import type { InputScope, ReplayFrom } from '../core/compaction/input-scope.ts';
import { compareConfigs, type CompareOutput } from '../core/replay/compare.ts';
import { evalBranches, type EvalBranches } from '../core/replay/eval-branches.ts';
import type { ReplayConfig, ReplayResult, TriggerPoint, WindowWarning } from '../core/replay/types.ts';
import type { FormatId } from '../core/import/types.ts';
import { parseConfigOptions } from '../core/replay/config-options.ts';
import { ratioToUncompacted, type RecordedRun, type UncompactedRun } from '../core/replay/recorded-run.ts';
import { retention } from '../core/replay/retention.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { importFile, loadPrompts } from './load.ts';
import type { UnseenPrefix } from '../core/replay/recorded-usage.ts';
import { parseUnseenPrefix } from '../core/replay/unseen-estimate.ts';
import type { ImportResult } from '../core/import/types.ts';
import { withSubagentMeta } from '../core/import/subagent-meta.ts';
import { findEvalInputs, nothingEvaluated, readSubagentMetaBeside, type SkippedFile } from './eval-files.ts';
import { sideBySide } from './side-by-side.ts';
import { linkParents, threadFields, threadsOf, type EvalAgent, type EvalParent } from './eval-threads.ts';
import type { Summarizer } from '../core/compaction/summarizer.ts';
import type { HookRunner } from '../core/hooks/user-hooks.ts';
import { loadCliHooks } from './hooks.ts';
import type { Entry } from '../core/journal/entry.ts';
import type { JudgedReport } from './judge-run.ts';
import type { ModelRunReport } from './model-report.ts';

export interface EvalArgs {
  paths: string[];
  configs: ReplayConfig[];
  counter: CounterId;
  contextWindow: number;
  /** Price table model; default: each transcript's recorded model when priced. */
  model?: string;
  format?: FormatId;
  jobs: number;
  /** Where each replay starts (`--from`, default 'start'). */
  from?: ReplayFrom;
  /** Which branches of a file are replayed (`--branches`, default 'all'). */
  branches?: EvalBranches;
  /** `--unseen-prefix`: tokens or a preset (`parseUnseenPrefix`); default: what each file's recorded usage gives, else 0. */
  unseenPrefix?: string;
  /**
   * A model run (model-eval.ts): the summarizer that replaces the offline one, and the judge that
   * grades each configuration once a file's replays are done (its result by configuration index);
   * `files` of them replayed side by side (the model client bounds the requests in flight).
   */
  /** `--hook`: the user's hook module, run in worker threads for each configuration whose `hooks` is set. */
  hook?: string;
  /** Time each hook call may take, ms (`--hook-timeout`, default 2,000). */
  hookTimeoutMs?: number;
  /** The loaded `hook` module (set by `runEval`). */
  hookRunner?: HookRunner;
  modelRun?: { summarizer: Summarizer; judge?: (output: CompareOutput, journal: readonly Entry[]) => Promise<ReadonlyArray<JudgedReport | undefined>>; files?: number };
}

export interface EvalStrategyReport {
  id: string;
  label: string;
  options: Record<string, unknown>;
  series: Array<{ call: number; contextTokens: number; compacted: boolean }>;
  compactions: number;
  peakTokens: number;
  overflowCalls: number;
  contextTokens: number;
  tokensPerTask: number;
  summarizerTokens: { input: number; output: number };
  cost: number | null;
  costModel: string | null;
  /** Probes whose source left the verbatim context, checked against the final context. */
  probes: ReplayResult['scores'];
  /** The same probes checked right after the compaction that removed them, summed over compactions. */
  probesAtCompaction: ReplayResult['scores'];
  probeList: Array<{ category: string; kind: string; text: string; kept: boolean; entryId: string }>;
  summaries: string[];
  /** Tokens per task over the uncompacted run's (the file's `uncompacted`): 1 saves nothing; null when that is 0. */
  ratioToUncompacted: number | null;
  /** Where the trigger fires, in the counter's tokens, against `contextWindow`; null for a configuration that failed before it was read. */
  trigger: TriggerPoint | null;
  /** Why the context cannot stay inside the window, each with the calls sent over it (window-warnings.ts); empty when it stays inside. */
  warnings: WindowWarning[];
  error?: string;
  /** With `--hook`: what the hooks cancelled or how they failed, by call (replay-hooks.ts). */
  hookNotes?: string[];
  /** With `--judge`: the answers graded 0-5 by dimension, and every question. */
  judged?: JudgedReport;
}

/** The agent's run as recorded (recorded-run.ts), with its tokens per task over the uncompacted run's. */
export type EvalRecorded = RecordedRun & { ratioToUncompacted: number | null };

export interface EvalFileReport {
  file: string;
  /** Which root conversation of the file (1-based), when it holds several. */
  conversation?: number;
  /** Which branch of that conversation (1-based, file order), when it has several: its leaf and the calls an earlier branch's replay also covered. */
  branch?: { index: number; of: number; leafId: string; line: number; sharedCalls: number };
  /** Why this branch was not replayed (no call of its own); it has no strategies. */
  notReplayed?: string;
  format: FormatId;
  calls: number;
  /** Where the replay started, what it covered and why. */
  scope?: InputScope;
  counter: string;
  contextWindow: number;
  strategies: EvalStrategyReport[];
  /**
   * The source agent's own run over the same calls: the prompt tokens it recorded per call (null
   * where a call recorded none), its own compactions at the call they came before, its tokens per
   * task; null where no call recorded usage (or the file could not be read).
   */
  recorded: EvalRecorded | null;
  /** The same calls with nothing compacted (counter tokens): the baseline of `ratioToUncompacted`; null when the file could not be read. */
  uncompacted: UncompactedRun | null;
  /** The tokens every call's context holds beyond the transcript (system prompt, tool definitions), with its source and note. */
  unseenPrefix?: { tokens: number; source: UnseenPrefix['source']; note: string };
  error?: string;
  /** The session the conversation belongs to (the file's `sessionId`), when recorded. */
  sessionId?: string;
  /** For a subagent's thread: the session that started it (see eval-threads.ts). */
  parent?: EvalParent;
  /** For a subagent's thread: which agent. */
  agent?: EvalAgent;
  /** For a subagent written inline in its session's file: the thread's id within the file (`sidechain-<n>`). */
  thread?: string;
  /** For a session: the subagents it started, by agent id -> the tool call that started each. */
  subagentCalls?: Record<string, string>;
}

export interface EvalReport {
  files: EvalFileReport[];
  /** Files found under the paths but not read, with why (metadata files are read with their transcript, not listed). */
  skipped: SkippedFile[];
  /** With a model (`--summarizer model`, `--judge`): the estimate, what was sent, and why it stopped if it did. */
  model?: ModelRunReport;
}

/** The transcript files under the given paths, sorted, each once. */
export function findTranscripts(paths: readonly string[]): string[] {
  return findEvalInputs(paths).files;
}

export async function runEval(args: EvalArgs): Promise<EvalReport> {
  for (const config of args.configs) parseConfigOptions(config, args.contextWindow); // refuse a bad option before any file is read
  const { files, skipped } = findEvalInputs(args.paths);
  if (files.length === 0) throw new Error(nothingEvaluated(args.paths, skipped, []));
  if (args.hook !== undefined && !args.hookRunner) args = { ...args, hookRunner: await loadCliHooks(args.hook, args.hookTimeoutMs) };
  const reports: EvalFileReport[] = [];
  if (args.jobs > 1 && files.length > 1) reports.push(...(await runInChildren(files, args)).files);
  else if ((args.modelRun?.files ?? 1) > 1) reports.push(...(await sideBySide(files, args.modelRun!.files!, (file) => evalFile(file, args))).flat());
  else for (const file of files) reports.push(...(await evalFile(file, args)));
  return { files: linkParents(reports), skipped };
}

export async function evalFile(file: string, args: EvalArgs): Promise<EvalFileReport[]> {
  const shown = relative(process.cwd(), file) || file;
  let imported: ImportResult;
  try {
    imported = await importFile(file, args.format);
    const meta = readSubagentMetaBeside(file);
    if (meta !== undefined) imported = withSubagentMeta(imported, meta);
  } catch (error) {
    return [{ file: shown, format: args.format ?? 'claude-code', calls: 0, counter: args.counter, contextWindow: args.contextWindow, strategies: [], recorded: null, uncompacted: null, error: (error as Error).message }];
  }
  const reports: EvalFileReport[] = [];
  for (const result of threadsOf(imported)) reports.push(...(await evalThread(result, shown, args, result !== imported)));
  return reports;
}

/** The rows of one thread of a file: one per root conversation. */
async function evalThread(result: ImportResult, shown: string, args: EvalArgs, isInline: boolean): Promise<EvalFileReport[]> {
  const counter = await getCounter(args.counter);
  const { totals } = countEntries(result.entries, counter);
  const prompts = loadPrompts();
  const reports: EvalFileReport[] = [];
  for (const branch of evalBranches(result.entries, args.branches)) {
    const where = {
      file: shown,
      ...(branch.conversation !== undefined ? { conversation: branch.conversation } : {}),
      ...(branch.branch ? { branch: { ...branch.branch, leafId: branch.leafId, line: branch.line, sharedCalls: branch.sharedCalls } } : {}),
    };
    if (branch.skipped !== undefined) {
      reports.push({ ...where, notReplayed: branch.skipped, format: result.format, calls: branch.calls, counter: counter.label, contextWindow: args.contextWindow, strategies: [], recorded: null, uncompacted: null, ...threadFields(result, isInline) });
      continue;
    }
    const output = await compareConfigs({
      journal: result.entries, totals, counter, contextWindow: args.contextWindow, configs: args.configs,
      summarizer: args.modelRun?.summarizer ?? createOfflineSummarizer(), prompts, leafId: branch.leafId,
      ...(args.hookRunner ? { hooks: args.hookRunner } : {}),
      ...(args.from ? { from: args.from } : {}),
      ...(args.model ? { priceModel: args.model } : {}),
      ...(args.unseenPrefix !== undefined ? { unseenPrefix: parseUnseenPrefix(args.unseenPrefix) } : {}),
    });
    const judged = args.modelRun?.judge ? await args.modelRun.judge(output, result.entries) : [];
    reports.push({
      ...where,
      format: result.format,
      calls: output.calls,
      scope: output.scope,
      counter: counter.label,
      contextWindow: args.contextWindow,
      strategies: output.results.map((replay, i) => ({ ...strategyReport(replay), ratioToUncompacted: ratioToUncompacted(replay.totals.tokensPerTask, output.uncompacted), ...(judged[i] ? { judged: judged[i] } : {}) })),
      recorded: output.recorded ? { ...output.recorded, ratioToUncompacted: ratioToUncompacted(output.recorded.tokensPerTask, output.uncompacted) } : null,
      uncompacted: output.uncompacted,
      unseenPrefix: { tokens: output.unseenPrefix.tokens, source: output.unseenPrefix.source, note: output.unseenPrefix.note },
      ...threadFields(result, isInline),
    });
  }
  return reports;
}

export function strategyReport(result: ReplayResult): Omit<EvalStrategyReport, 'ratioToUncompacted'> {
  return {
    id: result.config.strategy,
    label: result.label,
    options: result.config.options,
    series: result.calls.map((call) => ({ call: call.call, contextTokens: call.contextTokens, compacted: call.compacted })),
    compactions: result.totals.compactions,
    peakTokens: result.totals.peakTokens,
    overflowCalls: result.totals.overflowCalls,
    contextTokens: result.totals.contextTokens,
    tokensPerTask: result.totals.tokensPerTask,
    summarizerTokens: result.totals.summarizerTokens,
    cost: result.totals.cost,
    costModel: result.totals.costModel,
    probes: retention(result.probes).byCategory,
    probesAtCompaction: result.compactionScores,
    probeList: result.probes.map(({ probe, kept }) => ({ category: probe.category, kind: probe.kind, text: probe.text, kept, entryId: probe.entryId })),
    summaries: result.compactions.flatMap((compaction) => Object.values(compaction.summaries)),
    trigger: result.trigger ?? null,
    warnings: result.warnings ?? [],
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.hookNotes ? { hookNotes: result.hookNotes } : {}),
  };
}

/** Splits the files over `jobs` child processes running this same command with `--json`, and merges their reports in file order. */
async function runInChildren(files: string[], args: EvalArgs): Promise<EvalReport> {
  const jobs = Math.min(args.jobs, files.length);
  const chunks: string[][] = Array.from({ length: jobs }, () => []);
  files.forEach((file, i) => chunks[i % jobs]!.push(file));
  const main = resolve(import.meta.dirname, 'main.ts');
  const outputs = await Promise.all(chunks.map((chunk) => new Promise<EvalReport>((resolvePromise, reject) => {
    // The CLI runs its TypeScript through tsx (npm run cli): the children load it the same way.
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'eval', ...chunk, '--configs-json', JSON.stringify(args.configs), '--counter', args.counter, '--window', String(args.contextWindow), ...(args.model ? ['--model', args.model] : []), ...(args.format ? ['--format', args.format] : []), ...(args.from ? ['--from', args.from] : []), ...(args.branches ? ['--branches', args.branches] : []), ...(args.unseenPrefix !== undefined ? ['--unseen-prefix', args.unseenPrefix] : []), ...(args.hook !== undefined ? ['--hook', args.hook] : []), ...(args.hookTimeoutMs !== undefined ? ['--hook-timeout', String(args.hookTimeoutMs)] : []), '--jobs', '1', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (data: string) => (out += data));
    child.on('error', reject);
    child.on('close', (code) => {
      // A job whose every file failed exits 1 after printing its report: those rows are kept.
      if (code !== 0 && out.trim() === '') reject(new Error(`An eval job exited with code ${code}.`));
      else resolvePromise(JSON.parse(out) as EvalReport);
    });
  })));
  const order = new Map(files.map((file, i) => [relative(process.cwd(), file) || file, i]));
  // Array.sort is stable: a file's threads keep the order its child gave them.
  // Array.sort is stable: a file's rows (conversations, then subagent threads) keep the order its job gave them.
  return { skipped: [], files: outputs.flatMap((output) => output.files).sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0)) };
}
