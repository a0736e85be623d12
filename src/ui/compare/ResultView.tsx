/**
 * One saved comparison: the chart (its own lazy chunk), the compactions as a keyboard list with
 * the one opened, the context at a chosen call, the totals, the final contexts side by side and
 * the probe list. Selection is local: a saved result never changes.
 */
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { Probe } from '../../core/probes/types.ts';
import type { ConversationRow } from '../../db/schema.ts';
import type { ComparisonView } from '../../worker/compare/compare-view.ts';
import { countsKey } from '../../store/counts-slice.ts';
import { useAppStore } from '../../store/store.ts';
import { CallContext } from './CallContext.tsx';
import { CompactionDetail, MarkerList } from './CompactionDetail.tsx';
import type { ChartSelection } from './CompareChart.tsx';
import { FinalContexts } from './FinalContexts.tsx';
import { JudgePanel } from './JudgePanel.tsx';
import { ProbeList } from './ProbeList.tsx';
import { exportComparison } from './SavedComparisons.tsx';
import { TotalsTable } from './TotalsTable.tsx';
import { ProbeScoresTable } from './ProbeScoresTable.tsx';
import { useStages } from './use-comparison.ts';
import { formatNumber } from '../common/format.ts';

const CompareChart = lazy(() => import('./CompareChart.tsx'));

export interface ResultViewProps {
  row: ComparisonView;
  conversation: ConversationRow;
  journal: readonly Entry[];
  dismissed: ReadonlySet<string>;
  onDismiss: (probe: Probe) => void;
  onRestore: () => void;
}

export function ResultView({ row, conversation, journal, dismissed, onDismiss, onRestore }: ResultViewProps) {
  const { result, request } = row;
  const results = result.results;
  const byId = useMemo(() => new Map(journal.map((entry) => [entry.id, entry])), [journal]);
  const totals = useAppStore((s) => (row.importId === conversation.importId ? s.counts[countsKey(conversation.id, conversation.importId, result.counter)]?.totals : undefined));
  const tokensOf = useCallback((entry: Entry) => totals?.[entry.index], [totals]);
  const [marker, setMarker] = useState<{ config: number; compaction: number }>();
  const [call, setCall] = useState(() => ({ config: 0, call: Math.max(0, (results[0]?.calls.length ?? 1) - 1) }));
  const selection: ChartSelection | undefined = useMemo(() => (marker ? { config: marker.config, compaction: marker.compaction } : { config: call.config, call: call.call }), [marker, call]);
  const pickCall = useCallback((config: number, n: number) => {
    setMarker(undefined);
    setCall({ config, call: n });
  }, []);
  const pickCompaction = useCallback((config: number, compaction: number) => setMarker({ config, compaction }), []);
  const stale = row.importId !== conversation.importId;
  const newlyDismissed = [...dismissed].filter((id) => !(request.dismissedProbes ?? []).includes(id)).length;
  const openResult = marker ? results[marker.config] : undefined;
  const dismissedIds = useMemo(() => [...dismissed].sort(), [dismissed]);
  // Chart and totals first; the markers, the call's context, the final contexts and the probes each in a later task.
  const stage = useStages(5);

  return (
    <section className="compare-result" data-testid="compare.result" data-id={row.id} aria-label={row.name}>
      <header className="result-header">
        <h3 data-testid="compare.result.name">{row.name}</h3>
        <p className="muted small">
          {new Date(row.createdAt).toLocaleString()} · {result.counterLabel} · window {formatNumber(result.contextWindow)} · summaries by {request.remote ? `${request.remote.presetId} · ${request.remote.model}` : request.localModelId ?? request.summarizer}
          {result.priceModel ? ` · cost at ${result.priceModel} prices` : ' · no price model'} · {formatNumber(results[0]?.calls.length ?? 0)} calls · {(result.durationMs / 1000).toFixed(1)} s
        </p>
        <div className="actions">
          <button type="button" onClick={() => void exportComparison(row, 'json')} data-testid="compare.export.json">Export JSON</button>
          <button type="button" onClick={() => void exportComparison(row, 'csv')} data-testid="compare.export.csv">Export CSV</button>
        </div>
        {result.scope && <p className="muted small" data-testid="compare.result.scope" data-from={result.scope.from}>{result.scope.note}</p>}
        {stale && <p className="warn small">This comparison was made on an earlier import of the conversation: entries it names may not be found.</p>}
        {newlyDismissed > 0 && <p className="muted small">{newlyDismissed} probe{newlyDismissed === 1 ? ' was' : 's were'} dismissed after this run: run again to update the scores.</p>}
      </header>
      <Suspense fallback={<div className="compare-chart muted">Loading the chart…</div>}>
        <CompareChart results={results} recorded={result.recorded} contextWindow={result.contextWindow} unseenPrefix={result.unseenPrefix} counterLabel={result.counterLabel} selection={selection} onPickCall={pickCall} onPickCompaction={pickCompaction} />
      </Suspense>
      {result.unseenPrefix && (
        <p className="muted small" data-testid="compare.prefix" data-tokens={result.unseenPrefix.tokens} data-source={result.unseenPrefix.source}>
          {result.unseenPrefix.tokens > 0 ? 'Shaded band from 0: ' : ''}{result.unseenPrefix.note}
        </p>
      )}
      <p className="muted small">Click a ◆ to open a compaction, a curve to see the context of that call; drag to zoom, double-click to reset.</p>
      {stage >= 2 && <MarkerList results={results} selected={marker} onPick={pickCompaction} />}
      {marker && openResult && (
        <CompactionDetail
          comparisonId={row.id}
          result={openResult}
          config={marker.config}
          index={marker.compaction}
          byId={byId}
          counterLabel={result.counterLabel}
          onShowContext={(n) => pickCall(marker.config, n)}
          onClose={() => setMarker(undefined)}
        />
      )}
      <h4>Context at a call</h4>
      {stage >= 3 && <CallContext comparisonId={row.id} results={results} byId={byId} tokensOf={tokensOf} config={call.config} call={call.call} onChange={pickCall} />}
      <h4>Totals</h4>
      <TotalsTable results={results} recorded={result.recorded} counterLabel={result.counterLabel} />
      <ProbeScoresTable results={results} />
      <h4>Final contexts and what each lost</h4>
      {stage >= 4 && <FinalContexts results={results} byId={byId} dismissed={dismissed} />}
      <h4>Probes</h4>
      {stage >= 5 && (
        <>
          <ProbeList results={results} byId={byId} dismissed={dismissed} onDismiss={onDismiss} onRestore={onRestore} />
          <h4>Judged by a model</h4>
          <JudgePanel row={row} dismissed={dismissedIds} />
        </>
      )}
    </section>
  );
}
