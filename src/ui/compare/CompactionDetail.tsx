/**
 * The compactions of every configuration as buttons (the chart's diamonds, reachable by keyboard),
 * and one compaction opened: why it fired, what the plan said, tokens before and after, the
 * summaries it wrote, the entries it took out of the verbatim context and the probes it kept or lost.
 */
import { memo, useState } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import { comparisonCompaction } from '../../store/compare-reads.ts';
import { compactionMoment } from '../../store/view/comparison.ts';
import { preview } from '../../store/view/entry-ref.ts';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { colorOf } from './model.ts';
import { ProbeOutcomeList } from './ProbeOutcomeList.tsx';
import { NoteText } from '../common/NoteText.tsx';
import { useWorkerValue } from './use-comparison.ts';
import { formatNumber } from '../common/format.ts';
import { MarkdownText } from '../common/MarkdownText.tsx';

const fmt = (n: number) => formatNumber(Math.round(n));

/** Markers listed per configuration before "Show all": a strategy that compacts at every call makes thousands. */
const MARKERS_SHOWN = 200;

export function MarkerList({ results, selected, onPick }: { results: readonly ReplayResultView[]; selected: { config: number; compaction?: number } | undefined; onPick: (config: number, compaction: number) => void }) {
  const total = results.reduce((sum, result) => sum + result.compactions.length, 0);
  if (total === 0) return <p className="muted small" data-testid="compare.markers.none">No configuration compacted: the session stayed under each trigger.</p>;
  return (
    <div className="marker-list" role="group" aria-label={`${total} compactions`} data-testid="compare.markers">
      {results.map((result, i) =>
        result.compactions.length === 0 ? null : (
          <MarkerRow key={i} result={result} config={i} picked={selected?.config === i ? selected.compaction : undefined} onPick={onPick} />
        ),
      )}
    </div>
  );
}

/** One configuration's markers: only the row whose selection changed renders again (a row can hold hundreds). */
const MarkerRow = memo(function MarkerRow({ result, config, picked, onPick }: { result: ReplayResultView; config: number; picked: number | undefined; onPick: (config: number, compaction: number) => void }) {
  const [expanded, setExpanded] = useState(false);
  return (
    <div className="marker-row">
      <span className="marker-label" style={{ borderColor: colorOf(config) }}>{result.label}</span>
      {(expanded ? result.compactions : result.compactions.slice(0, MARKERS_SHOWN)).map((compaction, c) => (
        <button
          key={c}
          type="button"
          className={picked === c ? 'marker selected' : 'marker'}
          aria-pressed={picked === c}
          onClick={() => onPick(config, c)}
          title={`${compactionMoment(compaction)}: ${compaction.trigger.rule}: ${compaction.trigger.detail}`}
          data-testid="compare.marker"
          data-config={config}
          data-compaction={c}
        >
          ◆ call {compaction.call + 1}: {fmt(compaction.tokensBefore)} → {fmt(compaction.tokensAfter)}
        </button>
      ))}
      {!expanded && result.compactions.length > MARKERS_SHOWN && (
        <button type="button" className="link small" onClick={() => setExpanded(true)} data-testid="compare.markers.more">
          Show all {fmt(result.compactions.length)} (the chart marks every one)
        </button>
      )}
    </div>
  );
});

export interface CompactionDetailProps {
  /** The saved comparison: the worker reads the compaction's details from it. */
  comparisonId: string;
  result: ReplayResultView;
  config: number;
  index: number;
  byId: ReadonlyMap<string, Entry>;
  counterLabel: string;
  onShowContext: (call: number) => void;
  onClose: () => void;
}

/** How many removed entries are listed before "show all". */
const REMOVED_SHOWN = 60;

export function CompactionDetail({ comparisonId, result, config, index, byId, counterLabel, onShowContext, onClose }: CompactionDetailProps) {
  const marker = result.compactions[index];
  const [allRemoved, setAllRemoved] = useState(false);
  const detail = useWorkerValue(`${comparisonId}|${config}|${index}`, () => comparisonCompaction(comparisonId, config, index));
  if (!marker) return null;
  const compaction = detail.loading ? undefined : detail.value;
  if (!compaction) {
    return (
      <section className="compare-detail" data-testid="compare.detail.loading" aria-busy={detail.loading} style={{ borderLeftColor: colorOf(config) }}>
        <p className={detail.error ? 'error' : 'muted'}>
          {detail.error ? `Could not read compaction ${index + 1}: ${detail.error}` : detail.loading ? `Reading compaction ${index + 1} of ${result.label}…` : `Compaction ${index + 1} is no longer stored.`}
        </p>
      </section>
    );
  }
  const summaries = Object.entries(compaction.summaries);
  const removed = allRemoved ? compaction.removedIds : compaction.removedIds.slice(0, REMOVED_SHOWN);
  const kept = compaction.probes.filter((outcome) => outcome.kept).length;

  return (
    <section className="compare-detail" data-testid="compare.detail" data-config={config} data-compaction={index} aria-label={`Compaction ${index + 1} of ${result.label}`} style={{ borderLeftColor: colorOf(config) }}>
      <header className="detail-header">
        <h4>
          {result.label} · compaction {index + 1} of {result.compactions.length}, {compactionMoment(compaction)}
        </h4>
        <button type="button" className="link" onClick={() => onShowContext(compaction.call)} data-testid="compare.detail.context">
          Context of call {compaction.call + 1}
        </button>
        <button type="button" onClick={onClose} data-testid="compare.detail.close" aria-label="Close the compaction detail">
          Close
        </button>
      </header>
      <p data-testid="compare.detail.trigger">
        <strong>Trigger</strong> <code>{compaction.trigger.rule}</code>: {compaction.trigger.detail}
      </p>
      <p data-testid="compare.detail.tokens">
        <strong>{fmt(compaction.tokensBefore)}</strong> → <strong>{fmt(compaction.tokensAfter)}</strong> tokens ({counterLabel}) · {compaction.removedIds.length} entries left the verbatim context
      </p>
      {compaction.plan.notes.length > 0 && (
        <ul className="small notes" data-testid="compare.detail.notes">
          {compaction.plan.notes.map((note, i) => <li key={i}><NoteText note={note} byId={(id) => byId.get(id)} /></li>)}
        </ul>
      )}
      <h5>Summaries ({summaries.length})</h5>
      {summaries.length === 0 ? (
        <p className="muted small">This compaction wrote no summary (it dropped, masked or compressed instead).</p>
      ) : (
        summaries.map(([task, text]) => (
          <details key={task} open={summaries.length === 1} className="detail-summary">
            <summary>{task} · {formatNumber(text.length)} characters</summary>
            <div className="detail-summary-text" tabIndex={0} role="group" aria-label={`Summary ${task}`} data-testid="compare.detail.summary"><MarkdownText text={text} /></div>
          </details>
        ))
      )}
      <h5>What it replaced ({compaction.removedIds.length})</h5>
      <ol className="removed small" tabIndex={0} aria-label={`Entries compaction ${index + 1} replaced`} data-testid="compare.detail.removed">
        {removed.map((id) => {
          const entry = byId.get(id);
          return (
            <li key={id}>
              {entry ? <><span className={`role role-${entry.role}`}>{entry.role}</span> #{entry.index + 1} {preview(entry, 120)}</> : <span className="muted">{id} (not in the journal any more)</span>}
            </li>
          );
        })}
      </ol>
      {compaction.removedIds.length > removed.length && (
        <button type="button" className="link small" onClick={() => setAllRemoved(true)} data-testid="compare.detail.removed.all">
          Show all {compaction.removedIds.length}
        </button>
      )}
      <h5>Probes from the replaced entries: {kept} kept, {compaction.probes.length - kept} lost</h5>
      <ProbeOutcomeList outcomes={compaction.probes} byId={byId} testId="compare.detail.probes" />
    </section>
  );
}
