/**
 * One saved sweep: what it ran on, the recommended point with its reason, the scatter chart, the
 * weights (editable, the defaults shown), the points table, "Use in my agent" for an agent's own
 * strategy, and its JSON and CSV exports. A point opens in Compare on the session chosen here.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import type { RetentionWeights } from '../../core/sweep/types.ts';
import type { SweepRow } from '../../db/sweep-row.ts';
import { openPointInCompare, saveSweepWeights } from '../../store/sweep-actions.ts';
import { useAppStore } from '../../store/store.ts';
import { sweepCsvText, sweepJson, sweepResultOf } from '../../store/view/sweep.ts';
import { COUNTER_LABELS } from '../../store/view/vocabulary.ts';
import { download, slug } from '../common/download.ts';
import { formatNumber } from '../common/format.ts';
import { AgentConfigPanel } from './AgentConfigPanel.tsx';
import { durationText } from './sweep-model.ts';
import { SweepPointsTable } from './SweepPointsTable.tsx';
import { WeightsEditor } from './WeightsEditor.tsx';

const SweepChart = lazy(() => import('./SweepChart.tsx'));

export function SweepResultView({ row }: { row: SweepRow }) {
  const [weights, setWeights] = useState<RetentionWeights>(row.weights);
  const result = useMemo(() => sweepResultOf(row, weights), [row, weights]);
  const [session, setSession] = useState(row.sessions[0]?.conversationId ?? '');
  const compareBusy = useAppStore((s) => s.compareRun !== undefined);
  const open = (index: number) => void openPointInCompare(row, index, session);
  const changeWeights = (next: RetentionWeights) => {
    setWeights(next);
    void saveSweepWeights(row.id, next);
  };
  const fileName = `${slug(row.name)}-${new Date(row.createdAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;

  return (
    <section className="sweep-result" data-testid="sweep.result" data-id={row.id}>
      <h3>{row.name}</h3>
      <p className="muted small" data-testid="sweep.result.meta">
        {row.points.length} point{row.points.length === 1 ? '' : 's'}
        {row.cancelled ? ` of ${row.planned} planned (cancelled)` : ''} on {row.sessions.length} session{row.sessions.length === 1 ? '' : 's'} · {COUNTER_LABELS[row.counter]} · window {formatNumber(row.contextWindow)} · summaries by {row.summarizer} · {durationText(row.durationMs)}
      </p>
      <p className={result.recommended >= 0 ? 'sweep-reason' : 'warn'} data-testid="sweep.recommended" data-index={result.recommended}>
        {result.recommended >= 0 && <strong>Recommended: point {result.recommended}. </strong>}
        {result.reason}
      </p>
      <Suspense fallback={<p className="muted">Loading the chart…</p>}>
        <SweepChart result={result} onPick={open} />
        <p className="muted small" data-testid="sweep.chart.hint">Click a point to open its replay in Compare; the table below has the same for each point.</p>
      </Suspense>
      <div className="actions">
        <label className="field inline">
          <span>Open a point in Compare on</span>
          <select value={session} onChange={(e) => setSession(e.target.value)} data-testid="sweep.compare-session">
            {row.sessions.map((s) => <option key={s.conversationId} value={s.conversationId}>{s.title}</option>)}
          </select>
        </label>
        {compareBusy && <span className="muted small">A compare is running: wait for it to open another point.</span>}
        <span className="spacer" />
        <button type="button" className="small" onClick={() => download(`${fileName}.sweep.json`, sweepJson(result))} data-testid="sweep.export.json">Export JSON</button>
        <button type="button" className="small" onClick={() => download(`${fileName}.sweep.csv`, sweepCsvText(result), 'text/csv')} data-testid="sweep.export.csv">Export CSV</button>
      </div>
      <WeightsEditor weights={weights} onChange={changeWeights} />
      <SweepPointsTable result={result} onOpen={open} disabled={compareBusy} />
      {result.agentConfig && <AgentConfigPanel config={result.agentConfig} />}
    </section>
  );
}
