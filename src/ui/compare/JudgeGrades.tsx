/**
 * The judged mode's result: the mean grade 0-5 per configuration and category (each cell's raw
 * mean in `data-value`), then per question the answer the model gave from the final context, its
 * grade and the judge's reason, with the reference facts it was graded against.
 */
import { memo } from 'react';
import { formatUsd } from '../../store/view/prices.ts';
import { PROBE_CATEGORIES } from '../../store/view/vocabulary.ts';
import type { CategoryGrade } from '../../core/replay/judge.ts';
import type { JudgeResult } from '../../worker/judge/judge-protocol.ts';
import { colorOf } from './model.ts';

const grade = (mean: number | null | undefined) => (mean === null || mean === undefined ? '—' : mean.toFixed(1));

export const JudgeGrades = memo(function JudgeGrades({ result }: { result: JudgeResult }) {
  const categories = PROBE_CATEGORIES.filter((category) => result.items.some((item) => item.category === category));
  const usage = result.requests === 0
    ? 'every answer and grade came from the cache: no request was sent'
    : `${result.requests} requests · ${result.usage.input.toLocaleString('en-US')} in / ${result.usage.output.toLocaleString('en-US')} out tokens${result.cost === null ? '' : ` · ${formatUsd(result.cost)}`}`;
  return (
    <div className="judge-result" data-testid="compare.judge.result" data-requests={result.requests}>
      <p className="muted small" data-testid="compare.judge.usage">
        Graded by {result.modelLabel}{result.models.length > 0 ? ` (${result.models.join(', ')})` : ''} · {usage} · {(result.durationMs / 1000).toFixed(1)} s
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Grades per category">
        <table className="compare-table small" data-testid="compare.judge.grades">
          <caption className="muted">Mean grade 0-5 per category (5: every reference fact, correct).</caption>
          <thead>
            <tr>
              <th scope="col">Configuration</th>
              {categories.map((category) => <th key={category} scope="col">{category}</th>)}
              <th scope="col">All</th>
            </tr>
          </thead>
          <tbody>
            {result.grades.map((row) => (
              <tr key={row.config} data-testid={`compare.judge.grades.${row.config}`}>
                <th scope="row"><span className="swatch" style={{ background: colorOf(row.config) }} aria-hidden /> {row.label}</th>
                {categories.map((category) => <GradeCell key={category} cell={row.categories[category]} testId={`compare.judge.grade.${row.config}.${category}`} />)}
                <td data-testid={`compare.judge.grade.${row.config}.all`} data-value={row.mean ?? ''}><strong>{grade(row.mean)}</strong></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.skipped.length > 0 && <p className="muted small">Not judged: {result.skipped.map((skip) => `${skip.label} (${skip.reason})`).join('; ')}.</p>}
      <details className="judge-items">
        <summary data-testid="compare.judge.items.toggle">Answers, grades and reasons ({result.items.length})</summary>
        <ol className="judge-list">
          {result.items.map((item, n) => (
            <li key={n} data-testid="compare.judge.item" data-config={item.config} data-category={item.category} data-score={item.score ?? ''}>
              <p className="small">
                <span className="swatch" style={{ background: colorOf(item.config) }} aria-hidden /> <strong>{item.label}</strong> · {item.category} · <em>{item.question}</em>
              </p>
              <p className="small">
                Grade <strong data-testid="compare.judge.item.score">{item.score === null ? 'unparseable' : `${item.score}/5`}</strong>
                {item.cached.answer && item.cached.grade && <span className="muted"> (cached)</span>}
                {' — '}
                <span data-testid="compare.judge.item.reason">{item.unparseable ? `the grading reply could not be used: ${item.unparseable}` : item.reason}</span>
              </p>
              <pre className="judge-answer small" data-testid="compare.judge.item.answer">{item.answer || '(empty answer)'}</pre>
              <details>
                <summary className="small">Reference ({item.facts.length} fact{item.facts.length === 1 ? '' : 's'}{item.omitted > 0 ? `, ${item.omitted} more not listed` : ''})</summary>
                <ul className="small">
                  {item.facts.map((fact) => <li key={fact.probeId}><span className="badge">{fact.kind}</span> {fact.text}</li>)}
                </ul>
              </details>
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
});

function GradeCell({ cell, testId }: { cell: CategoryGrade | undefined; testId: string }) {
  if (!cell) return <td className="muted" data-testid={testId} data-value="">—</td>;
  return (
    <td data-testid={testId} data-value={cell.mean ?? ''} title={cell.unparseable > 0 ? `${cell.unparseable} grade(s) could not be read` : undefined}>
      {grade(cell.mean)}
      {cell.unparseable > 0 && <span className="muted"> ({cell.unparseable} unparseable)</span>}
    </td>
  );
}
