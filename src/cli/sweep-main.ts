/**
 * `npm run cli -- sweep ...`: parses the command line, runs the sweep with its progress on stderr,
 * and prints the result as a table (default), `--json` (the SweepResult), `--csv` or `--md`. Exit
 * code 2 for a usage error (unknown strategy or option, a bad range, no session found), 1 when the
 * run itself fails.
 */
import { etaMs } from '../core/sweep/eta.ts';
import { SweepInputError } from '../core/sweep/points.ts';
import { formatWeights } from '../core/sweep/score.ts';
import { sweepCsv, sweepTable } from '../core/sweep/table.ts';
import type { SweepResult } from '../core/sweep/types.ts';
import { agentConfigLines } from '../core/tuning/agent-config-text.ts';
import { parseSweepArgs, type SweepOutput } from './sweep-args.ts';
import { runSweepCommand, type SweepReport } from './sweep.ts';

/** Progress shown after this long, then at this interval, ms. */
const PROGRESS_AFTER_MS = 2_000;

/** `sweep: 1,250 of 2,500 replays (50 points × 50 sessions), 1m 02s, about 1m 02s left`. */
export function progressLine(done: number, total: number, points: number, elapsedMs: number): string {
  // The first replays carry the files' import: no estimate before a fiftieth of the run.
  const eta = done * 50 >= total ? etaMs(done, total, elapsedMs) : undefined;
  const sessions = points > 0 ? Math.round(total / points) : 0;
  return `sweep: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} replays (${points} point${points === 1 ? '' : 's'} × ${sessions} session${sessions === 1 ? '' : 's'}), ${duration(elapsedMs)}${done < total && eta !== undefined ? `, about ${duration(eta)} left` : ''}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

export async function sweepMain(argv: readonly string[], usage: string): Promise<void> {
  let args: ReturnType<typeof parseSweepArgs>;
  try {
    args = parseSweepArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const started = Date.now();
  let shown = started;
  try {
    const report = await runSweepCommand(args, (done, total, points) => {
      const now = Date.now();
      // A short sweep says nothing; a long one a line every couple of seconds, and its last.
      if (now - started < PROGRESS_AFTER_MS || (now - shown < PROGRESS_AFTER_MS && done < total)) return;
      shown = now;
      process.stderr.write(`${progressLine(done, total, points, now - started)}\n`);
    });
    process.stdout.write(`${formatSweep(report, args.output, formatWeights(args.weights))}\n`);
    for (const skip of report.skipped) process.stderr.write(`skipped ${skip.file}: ${skip.reason}\n`);
  } catch (error) {
    const err = error as Error & { code?: string; path?: string };
    if (error instanceof SweepInputError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${err.code === 'ENOENT' ? `no such file or folder: ${err.path ?? ''}` : `${err.name}: ${err.message}`}\n`);
    process.exitCode = err.code === 'ENOENT' ? 2 : 1;
  }
}

/** The report in the chosen output: the SweepResult as JSON, the point table as CSV, or a table with the recommendation. */
export function formatSweep(report: SweepReport, output: SweepOutput, weights: string): string {
  const { result } = report;
  if (output === 'json') return JSON.stringify(result, null, 2);
  if (output === 'csv') return sweepCsv(result).trimEnd();
  const { header, rows } = sweepTable(result);
  const about = `${result.strategy}: ${result.points.length} point${result.points.length === 1 ? '' : 's'} over ${report.sessions.length} session${report.sessions.length === 1 ? '' : 's'}; retention weights ${weights}`;
  if (output === 'md') {
    const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
    return [`**Sweep of ${about}**`, '', line(header), line(header.map(() => '---')), ...rows.map(line), '', `**Recommended:** ${recommendedText(result)}`, ...agentLines(result, true)].join('\n');
  }
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd();
  return [`sweep of ${about}`, '', line(header), ...rows.map(line), '', `recommended: ${recommendedText(result)}`, ...agentLines(result, false)].join('\n');
}

function recommendedText(result: SweepResult): string {
  return result.recommended < 0 ? result.reason : `point ${result.recommended}. ${result.reason}`;
}

/** "Use in my agent": where the block goes, the block, what it was chosen on and what the agent cannot be set to do. */
function agentLines(result: SweepResult, markdown: boolean): string[] {
  const config = result.agentConfig;
  if (!config) return [];
  return ['', ...agentConfigLines(config, markdown)];
}

