/**
 * The judged mode's table, shaped like Factory's published one: one row per configuration, one
 * column per dimension (overall, recall, artifact trail, continuation, decision), each a mean 0-5
 * over every question of every file (gradesByKind, the same function as each row's `judged`),
 * with how many answers were graded and how many grades could not be read.
 */
import { gradesByKind, JUDGE_KINDS, JUDGE_KIND_TITLES, type KindGrades } from '../core/replay/judge-kinds.ts';
import type { EvalReport } from './eval.ts';

/** Per configuration (by its label, in the order given), the grades over all files. */
export function judgedTotals(report: EvalReport): Array<{ label: string; grades: KindGrades; files: number }> {
  const byLabel = new Map<string, { questions: Array<{ category: Parameters<typeof gradesByKind>[0][number]['category']; score: number | null }>; files: number }>();
  for (const file of report.files) {
    for (const strategy of file.strategies) {
      if (!strategy.judged) continue;
      let row = byLabel.get(strategy.label);
      if (!row) byLabel.set(strategy.label, (row = { questions: [], files: 0 }));
      row.files++;
      row.questions.push(...strategy.judged.questions.map((q) => ({ category: q.category, score: q.grade })));
    }
  }
  return [...byLabel].map(([label, row]) => ({ label, grades: gradesByKind(row.questions), files: row.files }));
}

const grade = (value: number | null) => (value === null ? '–' : value.toFixed(2));

export function formatJudgedMarkdown(report: EvalReport): string {
  const totals = judgedTotals(report);
  if (totals.length === 0) return 'Judged: no configuration had a question to judge (no compaction removed a probed fact).';
  const columns = ['configuration', 'overall', ...JUDGE_KINDS.map((kind) => JUDGE_KIND_TITLES[kind].toLowerCase()), 'graded', 'unreadable grades'];
  return [
    `Judged (${report.model?.judgeAt === 'final' ? 'at the final call' : 'right after each compaction'}, by ${report.model?.judge ?? 'the model'}): mean grade 0-5 per dimension over every question of every file; overall is the mean of the dimensions.`,
    '',
    `| ${columns.join(' | ')} |`,
    `|---|${columns.slice(1).map(() => '--:').join('|')}|`,
    ...totals.map(({ label, grades }) => `| ${label.replace(/\|/g, '\\|')} | ${grade(grades.overall)} | ${JUDGE_KINDS.map((kind) => grade(grades[kind])).join(' | ')} | ${grades.graded} | ${grades.unreadable} |`),
  ].join('\n');
}

export function formatJudgedText(report: EvalReport): string {
  const totals = judgedTotals(report);
  if (totals.length === 0) return 'judged: no configuration had a question to judge';
  return totals.map(({ label, grades }) => `judged ${label}: overall ${grade(grades.overall)}; ${JUDGE_KINDS.map((kind) => `${JUDGE_KIND_TITLES[kind].toLowerCase()} ${grade(grades[kind])}`).join(', ')} (${grades.graded} graded${grades.unreadable > 0 ? `, ${grades.unreadable} unreadable` : ''})`).join('\n');
}

/** Every question whose grade is missing, with why: never silently a 0. */
export function formatJudgedProblems(report: EvalReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    for (const strategy of file.strategies) {
      for (const q of strategy.judged?.questions ?? []) {
        if (q.error) lines.push(`not graded: ${file.file} ${strategy.label} ${q.kind}${q.atCall !== undefined ? ` at call ${q.atCall}` : ''}: ${q.error}`);
      }
    }
  }
  return lines.join('\n');
}
