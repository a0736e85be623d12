/**
 * The Compare tab (X2 replay, X3 compare): replay the recorded session call by call under one to
 * eight strategy configurations in the engine worker and compare what each would have sent, what
 * it cost and what it forgot. Runs are saved to IndexedDB when they finish and listed here.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDeferredValue, useEffect, useMemo } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import { dismissedProbes, dismissProbe, restoreProbes } from '../../store/compare-reads.ts';
import type { ConversationRow } from '../../db/schema.ts';
import { useAppStore } from '../../store/store.ts';
import { ConfigRows } from './ConfigRows.tsx';
import { ResultView } from './ResultView.tsx';
import { RunBar } from './RunBar.tsx';
import { SavedComparisons } from './SavedComparisons.tsx';
import { useComparisonView, useSavedComparisons } from './use-comparison.ts';
import './compare.css';

export interface ComparePanelProps {
  conversation: ConversationRow;
  journal: readonly Entry[];
  leafId: string | undefined;
}

export function ComparePanel({ conversation, journal, leafId }: ComparePanelProps) {
  const saved = useSavedComparisons(conversation.id);
  const dismissedRows = useLiveQuery(() => dismissedProbes(conversation.id), [conversation.id]);
  const dismissedIds = useMemo(() => (dismissedRows ?? []).map((row) => row.probeId).sort(), [dismissedRows]);
  const dismissed = useMemo(() => new Set(dismissedIds), [dismissedIds]);
  const chosenId = useAppStore((s) => s.compareOpen[conversation.id]);
  const openComparison = useAppStore((s) => s.openComparison);
  const running = useAppStore((s) => s.compareRun?.conversationId === conversation.id);
  const error = useAppStore((s) => (s.compareError?.conversationId === conversation.id ? s.compareError : undefined));
  const setError = useAppStore((s) => s.setCompareError);
  const current = saved?.find((row) => row.id === chosenId) ?? saved?.[0];
  // The worker decodes the stored result and sends it without the per-compaction details.
  const { view, error: viewError } = useComparisonView(current?.id);
  // A result can hold thousands of calls: it renders at transition priority, in slices, so the
  // page keeps answering while it appears.
  const open = useDeferredValue(view);
  useEffect(() => {
    void import('./CompareChart.tsx'); // fetched and evaluated now, not when the first result arrives
  }, []);

  return (
    <section className="compare-panel" data-testid="compare">
      <div className="compare-setup">
        <ConfigRows disabled={running} />
        <div>
          <RunBar conversation={conversation} leafId={leafId} dismissed={dismissedIds} />
          {error && (
            <p className={error.cancelled ? 'warn' : 'error'} role="alert" data-testid={error.cancelled ? 'compare.cancelled' : 'compare.error'}>
              {error.message}{' '}
              <button type="button" className="link small" onClick={() => setError(undefined)} aria-label="Dismiss this message">Dismiss</button>
            </p>
          )}
          {saved === undefined ? <p className="muted">Loading saved comparisons…</p> : <SavedComparisons rows={saved} openId={current?.id} importId={conversation.importId} onOpen={(id) => openComparison(conversation.id, id)} />}
          {viewError && <p className="error small" role="alert">Could not open the comparison: {viewError}</p>}
        </div>
      </div>
      {open && (
        <ResultView
          key={open.id}
          row={open}
          conversation={conversation}
          journal={journal}
          dismissed={dismissed}
          onDismiss={(probe) => void dismissProbe(conversation.id, probe)}
          onRestore={() => void restoreProbes(conversation.id)}
        />
      )}
    </section>
  );
}
