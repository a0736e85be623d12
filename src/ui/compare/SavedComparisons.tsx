/**
 * The conversation's saved comparisons, newest first: open one, export it (JSON without secrets,
 * or CSV of the totals), delete it after a confirmation. Every finished run is saved here.
 */
import { useState } from 'react';
import { deleteComparison } from '../../store/compare-actions.ts';
import { comparisonExport } from '../../store/compare-reads.ts';
import type { ComparisonSummary } from '../../worker/compare/compare-view.ts';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';
import { download, slug } from '../common/download.ts';

export interface SavedComparisonsProps {
  rows: readonly ComparisonSummary[];
  openId: string | undefined;
  importId: string;
  onOpen: (id: string) => void;
}

/** Downloads a saved comparison: the stored row is read in full only here, when the user asks for the file. */
export async function exportComparison(summary: ComparisonSummary, kind: 'json' | 'csv'): Promise<void> {
  const file = await comparisonExport(summary.id, kind);
  const name = `${slug(file.name)}-${new Date(file.createdAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  if (kind === 'json') download(`${name}.compare.json`, file.text);
  else download(`${name}.compare.csv`, file.text, 'text/csv');
}

export function SavedComparisons({ rows, openId, importId, onOpen }: SavedComparisonsProps) {
  const [deleting, setDeleting] = useState<ComparisonSummary>();
  const [error, setError] = useState<string>();
  if (rows.length === 0) return <p className="muted small" data-testid="compare.saved.empty">No saved comparison yet: each run is saved here when it finishes.</p>;
  return (
    <div className="saved" data-testid="compare.saved">
      <h3>Saved ({rows.length})</h3>
      <ul className="saved-list">
        {rows.map((row) => (
          <li key={row.id} className={row.id === openId ? 'selected' : undefined} data-testid="compare.saved.item" data-id={row.id}>
            <button type="button" className="link" onClick={() => onOpen(row.id)} aria-current={row.id === openId} data-testid="compare.saved.open">
              {row.name}
            </button>
            <span className="muted small">
              {' '}{new Date(row.createdAt).toLocaleString()} · {row.request.summarizer}
              {row.importId !== importId && <span className="badge warn" title="The conversation was re-imported since: some entries may not resolve">older import</span>}
            </span>
            <span className="item-actions">
              <button type="button" className="small" onClick={() => exportComparison(row, 'json').catch((e: unknown) => setError(`Could not export: ${e instanceof Error ? e.message : String(e)}`))} data-testid="compare.saved.json">JSON</button>
              <button type="button" className="small" onClick={() => exportComparison(row, 'csv').catch((e: unknown) => setError(`Could not export: ${e instanceof Error ? e.message : String(e)}`))} data-testid="compare.saved.csv">CSV</button>
              <button type="button" className="small" onClick={() => setDeleting(row)} data-testid="compare.saved.delete" aria-label={`Delete ${row.name}`}>Delete</button>
            </span>
          </li>
        ))}
      </ul>
      {error && <p className="error small" role="alert">{error}</p>}
      {deleting && (
        <ConfirmDialog
          title="Delete this comparison?"
          message={`"${deleting.name}" and its results will be removed from this browser. The conversation is not affected.`}
          confirmLabel="Delete"
          onConfirm={() => {
            deleteComparison(deleting.id).catch((e: unknown) => setError(`Could not delete: ${e instanceof Error ? e.message : String(e)}`));
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
