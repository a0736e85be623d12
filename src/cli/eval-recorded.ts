/**
 * The `eval` report's lines for the source agent's own run (as recorded) and the run without
 * compaction, beside the configurations: a Markdown table with one row per file, and two lines per
 * file in the plain-text summary.
 */
import type { EvalFileReport, EvalReport } from './eval.ts';
import { rowName } from './eval-threads.ts';

export const RECORDED_COLUMNS = [
  'file', 'recorded calls', 'own compactions', 'recorded peak', 'recorded overflow calls', 'recorded tokens per task', 'recorded vs uncompacted',
  'uncompacted tokens per task', 'uncompacted peak', 'uncompacted overflow calls',
];

const ratio = (value: number | null): string => (value === null ? '' : value.toFixed(2));

/** One row per file that was read: the recorded run (empty cells where nothing was recorded) and the uncompacted run. */
export function recordedRows(report: EvalReport): string[][] {
  return report.files.filter((file) => file.uncompacted).map((file) => {
    const r = file.recorded;
    const u = file.uncompacted!;
    return [
      rowName(file),
      ...(r ? [`${r.recordedCalls} of ${file.calls}`, String(r.compactions.length), String(r.peakTokens), String(r.overflowCalls), String(r.tokensPerTask), ratio(r.ratioToUncompacted)] : ['no usage recorded', '', '', '', '', '']),
      String(u.tokensPerTask), String(u.peakTokens), String(u.overflowCalls),
    ];
  });
}

/** The plain-text lines of one file: its agent's run as recorded and the run without compaction. */
export function recordedLines(file: EvalFileReport): string[] {
  if (!file.uncompacted) return [];
  const u = file.uncompacted;
  const r = file.recorded;
  const recorded = r
    ? `  as recorded (the agent's own run, provider-reported prompt tokens): ${r.recordedCalls} of ${file.calls} calls with usage, ${r.compactions.length} own compactions, peak ${r.peakTokens}, ${r.overflowCalls} overflow, ${r.tokensPerTask} tokens per task${r.ratioToUncompacted === null ? '' : ` (${ratio(r.ratioToUncompacted)} of uncompacted)`}`
    : '  as recorded: no call recorded its usage';
  return [recorded, `  uncompacted (every call sent all before it): peak ${u.peakTokens}, ${u.overflowCalls} overflow, ${u.tokensPerTask} tokens per task`];
}
