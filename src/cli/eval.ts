/**
 * `eval <file|folder>... --strategies <id[:k=v,...]>,...`: replays every transcript found under
 * each strategy configuration with the offline summarizer and scores what survived, the same
 * computation as the app's Compare tab. A folder is searched for supported files (Claude Code
 * subagent files included); a file holding several root conversations is evaluated per conversation.
 * `--jobs N` splits the files over N child processes.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { compareConfigs, conversationLeaves } from '../core/replay/compare.ts';
import type { ReplayConfig, ReplayResult } from '../core/replay/types.ts';
import type { FormatId } from '../core/import/types.ts';
import { parseConfigOptions } from '../core/replay/config-options.ts';
import { createOfflineSummarizer } from '../core/summarize/offline.ts';
import { getCounter, type CounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';
import { importFile, loadPrompts } from './load.ts';

export interface EvalArgs {
  paths: string[];
  configs: ReplayConfig[];
  counter: CounterId;
  contextWindow: number;
  /** Price table model; default: each transcript's recorded model when priced. */
  model?: string;
  format?: FormatId;
  jobs: number;
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
  error?: string;
}

export interface EvalFileReport {
  file: string;
  /** Which root conversation of the file (1-based), when it holds several. */
  conversation?: number;
  format: FormatId;
  calls: number;
  counter: string;
  contextWindow: number;
  strategies: EvalStrategyReport[];
  error?: string;
}

export interface EvalReport {
  files: EvalFileReport[];
}

const SUPPORTED = /\.(jsonl|json)$/i;

/** The transcript files under the given paths, sorted, each once. */
export function findTranscripts(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        walk(join(path, name));
      }
    } else if (SUPPORTED.test(path)) found.add(resolve(path));
  };
  for (const path of paths) {
    const stat = statSync(path); // a missing path fails here with ENOENT, named by the caller
    if (!stat.isDirectory()) found.add(resolve(path));
    else walk(path);
  }
  return [...found].sort();
}

export async function runEval(args: EvalArgs): Promise<EvalReport> {
  for (const config of args.configs) parseConfigOptions(config, args.contextWindow); // refuse a bad option before any file is read
  const files = findTranscripts(args.paths);
  if (files.length === 0) throw new Error(`No transcript files (.jsonl, .json) under ${args.paths.join(', ')}.`);
  if (args.jobs > 1 && files.length > 1) return runInChildren(files, args);
  const reports: EvalFileReport[] = [];
  for (const file of files) reports.push(...(await evalFile(file, args)));
  return { files: reports };
}

export async function evalFile(file: string, args: EvalArgs): Promise<EvalFileReport[]> {
  const shown = relative(process.cwd(), file) || file;
  let result;
  try {
    result = await importFile(file, args.format);
  } catch (error) {
    return [{ file: shown, format: args.format ?? 'claude-code', calls: 0, counter: args.counter, contextWindow: args.contextWindow, strategies: [], error: (error as Error).message }];
  }
  const counter = await getCounter(args.counter);
  const { totals } = countEntries(result.entries, counter);
  const leaves = conversationLeaves(result.entries);
  const prompts = loadPrompts();
  const reports: EvalFileReport[] = [];
  for (let i = 0; i < leaves.length; i++) {
    const output = await compareConfigs({
      journal: result.entries, totals, counter, contextWindow: args.contextWindow, configs: args.configs,
      summarizer: createOfflineSummarizer(), prompts,
      ...(leaves.length > 1 ? { leafId: leaves[i]! } : {}),
      ...(args.model ? { priceModel: args.model } : {}),
    });
    reports.push({
      file: shown,
      ...(leaves.length > 1 ? { conversation: i + 1 } : {}),
      format: result.format,
      calls: output.calls,
      counter: counter.label,
      contextWindow: args.contextWindow,
      strategies: output.results.map(strategyReport),
    });
  }
  return reports;
}

export function strategyReport(result: ReplayResult): EvalStrategyReport {
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
    probes: result.scores,
    probesAtCompaction: result.compactionScores,
    probeList: result.probes.map(({ probe, kept }) => ({ category: probe.category, kind: probe.kind, text: probe.text, kept, entryId: probe.entryId })),
    summaries: result.compactions.flatMap((compaction) => Object.values(compaction.summaries)),
    ...(result.error !== undefined ? { error: result.error } : {}),
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
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'eval', ...chunk, '--configs-json', JSON.stringify(args.configs), '--counter', args.counter, '--window', String(args.contextWindow), ...(args.model ? ['--model', args.model] : []), ...(args.format ? ['--format', args.format] : []), '--jobs', '1', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (data: string) => (out += data));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`An eval job exited with code ${code}.`));
      else resolvePromise(JSON.parse(out) as EvalReport);
    });
  })));
  const order = new Map(files.map((file, i) => [relative(process.cwd(), file) || file, i]));
  return { files: outputs.flatMap((output) => output.files).sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || (a.conversation ?? 0) - (b.conversation ?? 0)) };
}
