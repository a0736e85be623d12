/** The `eval` report as a Markdown table a person can paste into an issue, or as CSV (one row per file and configuration). */
import { PROBE_CATEGORIES } from '../core/probes/types.ts';
import { triggerText } from '../core/replay/trigger-point.ts';
import type { EvalFileReport, EvalReport, EvalStrategyReport } from './eval.ts';
import { recordedLines, recordedRows, RECORDED_COLUMNS } from './eval-recorded.ts';
import { parentCell, rowName } from './eval-threads.ts';

// `parent` (a subagent's session) comes last so the columns before it keep their places.
const COLUMNS = ['file', 'strategy', 'calls', 'compactions', 'peak', 'overflow calls', 'tokens per task', 'summarizer in', 'summarizer out', 'cost USD', ...PROBE_CATEGORIES, 'vs uncompacted', 'trigger', 'warnings', 'parent'];

function rows(report: EvalReport): string[][] {
  return report.files.flatMap((file) => {
    const name = branchName(file);
    const parent = parentCell(file);
    if (file.error !== undefined) return [[name, `error: ${file.error}`, ...COLUMNS.slice(2, -1).map(() => ''), parent]];
    if (file.notReplayed !== undefined) return [[name, `not replayed: ${file.notReplayed}`, String(file.calls), ...COLUMNS.slice(3, -1).map(() => ''), parent]];
    return file.strategies.map((s) => [
      name,
      s.error !== undefined ? `${s.label} (stopped: ${s.error})` : s.label,
      String(file.calls),
      String(s.compactions),
      String(s.peakTokens),
      String(s.overflowCalls),
      String(s.tokensPerTask),
      String(s.summarizerTokens.input),
      String(s.summarizerTokens.output),
      s.cost === null ? '' : s.cost.toFixed(4),
      ...PROBE_CATEGORIES.map((category) => score(s, category)),
      s.ratioToUncompacted === null ? '' : s.ratioToUncompacted.toFixed(2),
      s.trigger ? triggerText(s.trigger, file.contextWindow) : '',
      s.warnings.map((w) => `${w.kind}: ${w.message}`).join(' '),
      parent,
    ]);
  });
}

/** The row's name with its branch, when its conversation has several: `file branch 2/3 (leaf line 80)`. */
function branchName(file: EvalFileReport): string {
  return file.branch ? `${rowName(file)} branch ${file.branch.index}/${file.branch.of} (leaf line ${file.branch.line})` : rowName(file);
}

function score(s: EvalStrategyReport, category: (typeof PROBE_CATEGORIES)[number], at: 'final' | 'compaction' = 'final'): string {
  const { total, kept } = (at === 'final' ? s.probes : s.probesAtCompaction)[category];
  return total === 0 ? '–' : `${kept}/${total} (${Math.round((kept / total) * 100)}%)`;
}

export function formatEvalMarkdown(report: EvalReport): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const table = (columns: readonly string[], body: string[][]) => [
    `| ${columns.join(' | ')} |`,
    `|${columns.map((_, i) => (i < 2 ? '---' : '--:')).join('|')}|`,
    ...body.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ];
  const counters = [...new Set(report.files.map((file) => `${file.counter}, window ${file.contextWindow.toLocaleString('en-US')}`))].join('; ');
  const atCompaction = report.files.flatMap((file) => file.strategies.map((s) => [
    branchName(file), s.label, ...PROBE_CATEGORIES.map((category) => score(s, category, 'compaction')),
  ]));
  return [
    `Tokens in ${counters}. Probes: kept / total, from entries that left the verbatim context, checked against the final context.`,
    '',
    ...table(COLUMNS, rows(report)),
    '',
    'The same probes checked right after the compaction that removed them (what each summary carried at that moment):',
    '',
    ...table(['file', 'strategy', ...PROBE_CATEGORIES], atCompaction),
    '',
    'The agent\'s own run as recorded (prompt tokens its provider reported, system prompt and tool definitions included; its own compactions) and the same calls with nothing compacted:',
    '',
    ...table(RECORDED_COLUMNS, recordedRows(report)),
    '',
    'Where each replay starts:',
    '',
    ...report.files.flatMap((file) => (file.scope ? [`- ${escape(branchName(file))}: ${escape(file.scope.note)}`] : [])),
  ].join('\n');
}

export function formatEvalCsv(report: EvalReport): string {
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return [COLUMNS, ...rows(report)].map((row) => row.map(cell).join(',')).join('\n');
}

/** The plain-text summary: one line per file and configuration, its trigger against the window and each window warning under it; then the file's recorded and uncompacted runs. */
export function formatEvalText(report: EvalReport): string {
  const all = rows(report);
  const trigger = COLUMNS.indexOf('trigger');
  const lines: string[] = [];
  let r = 0;
  for (const file of report.files) {
    const strategies = file.error !== undefined || file.notReplayed !== undefined ? [undefined] : file.strategies;
    for (const s of strategies) {
      const row = all[r++]!;
      if (/^(error|not replayed): /.test(row[1]!)) {
        lines.push(`${row[0]}${row[COLUMNS.length - 1] ? ` (subagent of ${row[COLUMNS.length - 1]})` : ''}  ${row[1]}`);
        continue;
      }
      lines.push(`${row[0]}${row[COLUMNS.length - 1] ? ` (subagent of ${row[COLUMNS.length - 1]})` : ''}  ${row[1]}: ${row[3]} compactions, peak ${row[4]}, ${row[5]} overflow, ${row[6]} tokens per task${row[9] ? `, $${row[9]}` : ''}; probes ${PROBE_CATEGORIES.map((c, i) => `${c} ${row[10 + i]}`).join(', ')}${row[trigger] ? `; trigger ${row[trigger]}` : ''}`);
      for (const w of s?.warnings ?? []) lines.push(`  warning (${w.kind}, ${w.overflowCalls} overflow calls): ${w.message}`);
      for (const note of s?.hookNotes ?? []) lines.push(`  hook: ${note}`);
    }
    lines.push(...recordedLines(file));
  }
  return lines.join('\n');
}
