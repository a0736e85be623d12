/**
 * The sweep's points as a table, the keyboard's way to the chart: the varied settings, tokens per
 * task, ratio to uncompacted, retention, overflowing calls and compactions, whether the point is
 * on the front or recommended, and a button per row that opens its replay in Compare.
 */
import type { SweepResult } from '../../core/sweep/types.ts';
import { variedNames } from '../../store/view/sweep.ts';
import { formatNumber } from '../common/format.ts';

export interface SweepPointsTableProps {
  result: SweepResult;
  onOpen: (index: number) => void;
  disabled: boolean;
}

export function SweepPointsTable({ result, onOpen, disabled }: SweepPointsTableProps) {
  const names = variedNames(result.points);
  const front = new Set(result.pareto);
  return (
    <table className="sweep-table" data-testid="sweep.points">
      <caption className="muted small">Every point of the sweep; the front and the recommended point are marked.</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          {names.map((name) => <th key={name} scope="col">{name}</th>)}
          <th scope="col">Tokens per task</th>
          <th scope="col">Ratio to uncompacted</th>
          <th scope="col">Retention</th>
          <th scope="col">Overflowing calls</th>
          <th scope="col">Compactions</th>
          <th scope="col">On the front</th>
          <th scope="col">Replay</th>
        </tr>
      </thead>
      <tbody>
        {result.points.map((point, i) => (
          <tr key={i} data-testid="sweep.point" data-index={i} data-front={front.has(i)} data-recommended={i === result.recommended} className={i === result.recommended ? 'recommended' : point.overflowCalls > 0 ? 'overflows' : undefined}>
            <td>{i}</td>
            {names.map((name) => <td key={name}>{String(point.options[name])}</td>)}
            <td>{formatNumber(point.tokensPerTask)}</td>
            <td>{point.ratioToUncompacted.toFixed(3)}x</td>
            <td>{(point.retention * 100).toFixed(1)}%</td>
            <td className={point.overflowCalls > 0 ? 'error' : undefined}>{formatNumber(point.overflowCalls)}</td>
            <td>{formatNumber(point.compactions)}</td>
            <td>
              {i === result.recommended ? 'recommended' : front.has(i) ? 'yes' : ''}
              {point.errors && point.errors.length > 0 && <span className="error small" title={point.errors.join('\n')}> failed on {point.errors.length} session{point.errors.length === 1 ? '' : 's'}</span>}
            </td>
            <td>
              <button type="button" className="small" onClick={() => onOpen(i)} disabled={disabled} data-testid="sweep.point.open" aria-label={`Open point ${i} in Compare`}>
                Open in Compare
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
