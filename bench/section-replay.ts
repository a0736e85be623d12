/**
 * Section 7: replay and compare. A generated session of 1,000 and 10,000 calls replayed under each
 * built-in strategy with the offline summarizer (counts precomputed: no tokenizing is timed), and
 * the CLI's compare over 50 real sessions (tau-bench airline conversations and the repository's
 * samples) with 6 strategies. Targets: < 1 s per strategy at 1,000 calls, < 10 s at 10,000 calls,
 * < 60 s for the 50 x 6 evaluation.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadPrompts, importFile } from '../src/cli/load.ts';
import type { CompactionInput } from '../src/core/compaction/types.ts';
import { compareConfigs, conversationLeaves } from '../src/core/replay/compare.ts';
import { findCalls } from '../src/core/replay/calls.ts';
import { replaySession } from '../src/core/replay/replay.ts';
import { STRATEGY_IDS } from '../src/core/strategies/index.ts';
import { createOfflineSummarizer } from '../src/core/summarize/offline.ts';
import { getCounter, getEstimator } from '../src/core/tokens/counters.ts';
import { countEntries } from '../src/core/tokens/entry-tokens.ts';
import { TokenIndex } from '../src/core/tokens/prefix-sums.ts';
import { fmt, printPairs, printTable } from './report.ts';
import { synthetic } from './synthetic.ts';

/** Entries giving about `calls` assistant responses. */
function sessionOf(calls: number): { input: CompactionInput; calls: number } {
  let length = Math.round(calls * 2.2);
  for (;;) {
    const s = synthetic(length, 0, 3);
    const found = findCalls(s.entries).length;
    if (found >= calls) {
      return { input: { entries: s.entries, tokens: new TokenIndex(s.counts), counter: getEstimator('chars4'), contextWindow: 200_000, now: 0 }, calls: found };
    }
    length = Math.round(length * (calls / found) * 1.02);
  }
}

/** Replay target per strategy, by session size in calls. Unit: ms. */
const REPLAY_TARGET_MS: Readonly<Record<number, number>> = { 1_000: 1_000, 10_000: 10_000 };
/** Target of the 50 x 6 evaluation. Default 60,000. Unit: ms. */
const EVAL_TARGET_MS = 60_000;

/** `met` or `MISSED` against a target, wall time first; CPU time beside it tells load from work. */
function verdict(ms: number, cpuMs: number, target: number): string {
  return `< ${fmt(target / 1000)} s: ${ms < target ? 'met' : cpuMs < target ? 'missed on wall time only (load)' : 'MISSED'}`;
}

function load(): string {
  return `load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`;
}

export async function replaySection(): Promise<void> {
  const prompts = loadPrompts();
  const strategies = STRATEGY_IDS.filter((id) => id !== 'custom');
  for (const size of [1_000, 10_000]) {
    const { input, calls } = sessionOf(size);
    printPairs([['session', `${fmt(calls)} calls, ${fmt(input.entries.length)} entries, ${fmt(input.tokens.total)} tokens (chars/4), window 200,000; ${load()}`]]);
    const target = REPLAY_TARGET_MS[size]!;
    const rows: Array<Array<string | number>> = [];
    // Every strategy at both sizes, those that compact at nearly every call too (they continue their
    // previous plan and store each compaction's context as a change). CPU time beside wall time:
    // on a shared machine the wall time also counts the other processes.
    for (const id of strategies) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      const result = await replaySession({ input, config: { strategy: id, options: {} }, summarizer: createOfflineSummarizer(), prompts });
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      rows.push([id, `${fmt(ms)} ms`, `${fmt(cpuMs)} ms`, verdict(ms, cpuMs, target), result.totals.compactions, fmt(result.totals.peakTokens), result.totals.overflowCalls, fmt(result.totals.tokensPerTask), result.error ?? '']);
    }
    printTable(['strategy', 'replay', 'cpu', 'target', 'compactions', 'peak', 'overflow', 'tokens per task', 'error'], rows);
  }

  // 50 real sessions: the first 47 tau-bench airline conversations plus the three larger samples.
  const counter = await getCounter('o200k');
  const files = ['public/samples/openai-chat/gpt-4o-airline.json', 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'public/samples/pi/large-session.jsonl', 'public/samples/codex/schema-coverage.jsonl'];
  const configs = ['pi', 'augment', 'layered', 'observation-masking', 'tool-result-clearing', 'sliding-window'].filter((id) => (STRATEGY_IDS as string[]).includes(id)).map((strategy) => ({ strategy, options: {} }));
  const start = performance.now();
  const cpu = process.cpuUsage();
  let sessions = 0;
  let replays = 0;
  for (const file of files) {
    readFileSync(file); // fail early with the path when a sample is missing
    const result = await importFile(file);
    const { totals } = countEntries(result.entries, counter);
    const leaves = conversationLeaves(result.entries);
    for (const leaf of leaves.slice(0, file.includes('airline') ? 47 : 1)) {
      const output = await compareConfigs({ journal: result.entries, totals, counter, contextWindow: 32_000, configs, summarizer: createOfflineSummarizer(), prompts, leafId: leaf });
      sessions++;
      replays += output.results.length;
    }
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  printPairs([['eval', `${sessions} real sessions x ${configs.length} strategies (${replays} replays, o200k counted once per file, window 32,000) in ${fmt(ms)} ms, cpu ${fmt(cpuMs)} ms, one core (${verdict(ms, cpuMs, EVAL_TARGET_MS)}; ${load()})`]]);
}
