/**
 * The README's retention table: what the offline summarizer keeps on the repository's real samples,
 * as `eval` measures it (o200k, a 50,000-token window, pi and augment with their defaults, probes
 * checked right after each compaction), and the floors the retention test holds them to. One
 * function measures (`measureRetention`: the `eval` run of `RETENTION_ARGV`), one writes the table
 * (`retentionTable`): `npm run cli -- retention-table` prints it and `retention-table.test.ts`
 * checks the README holds exactly that table and that every row meets the floors.
 */
import { PROBE_CATEGORIES, type ProbeCategory } from '../core/probes/types.ts';
import { runEval, type EvalReport, type EvalStrategyReport } from './eval.ts';
import { parseEvalArgs } from './eval-args.ts';

export const RETENTION_SAMPLES = ['public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl', 'public/samples/pi/large-session.jsonl'];

/** The `eval` arguments the table is measured with (the README shows them as the command). */
export const RETENTION_ARGV = [...RETENTION_SAMPLES, '--strategies', 'pi,augment', '--window', '50000'];

/** The categories the table shows (identifiers are the user's exact values, listed in `eval`'s own tables). */
const SHOWN: readonly ProbeCategory[] = ['artifact', 'constraint', 'task', 'error', 'decision'];

/** Least share kept right after a compaction, per category, for every row of the table. */
export const RETENTION_FLOORS: Readonly<Partial<Record<ProbeCategory, number>>> = { artifact: 0.95, constraint: 1, task: 0.9, error: 0.55, decision: 1 };

/** The `eval` report the table is made from. */
export function measureRetention(): Promise<EvalReport> {
  return runEval(parseEvalArgs(RETENTION_ARGV));
}

const SAMPLE_NAMES: Record<string, string> = { 'claude-code': 'Claude Code', pi: 'pi', codex: 'Codex', 'openai-chat': 'OpenAI chat' };

function sampleName(file: string, calls: number): string {
  const folder = file.split('/').slice(-2, -1)[0] ?? file;
  return `${SAMPLE_NAMES[folder] ?? folder} (${calls.toLocaleString('en-US')} calls)`;
}

/** Kept over total right after each compaction, with the share when something was lost. */
function cell(strategy: EvalStrategyReport, category: ProbeCategory): string {
  const { kept, total } = strategy.probesAtCompaction[category];
  if (total === 0) return '–';
  return kept === total ? `${kept}/${total}` : `${kept}/${total} (${Math.round((kept / total) * 100)}%)`;
}

/** The share of a row's probes of one category kept right after each compaction (1 with none). */
export function keptShare(strategy: EvalStrategyReport, category: ProbeCategory): number {
  const { kept, total } = strategy.probesAtCompaction[category];
  return total === 0 ? 1 : kept / total;
}

/** The floors as the README states them: `artifact >= 95%, constraint 100%, …`. */
export function floorsText(): string {
  return PROBE_CATEGORIES.flatMap((category) => {
    const floor = RETENTION_FLOORS[category];
    return floor === undefined ? [] : [floor === 1 ? `${category} 100%` : `${category} >= ${Math.round(floor * 100)}%`];
  }).join(', ');
}

/** The README's table from the `eval` report of `RETENTION_ARGV`. */
export function retentionTable(report: EvalReport): string {
  const rows = report.files.flatMap((file) =>
    file.strategies.map((strategy) => `| ${sampleName(file.file, file.calls)} | ${strategy.label} | ${strategy.compactions} | ${SHOWN.map((category) => cell(strategy, category)).join(' | ')} |`),
  );
  return [`| sample | strategy | compactions | ${SHOWN.join(' | ')} |`, `|---|---|--:|${SHOWN.map(() => '--:').join('|')}|`, ...rows].join('\n');
}
