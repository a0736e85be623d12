/** The saved sweeps, newest first: open one, or delete it after a confirmation. */
import { useState } from 'react';
import type { SweepRow } from '../../db/sweep-row.ts';
import { deleteSavedSweep } from '../../store/sweep-actions.ts';
import { ConfirmDialog } from '../common/ConfirmDialog.tsx';

export interface SavedSweepsProps {
  rows: readonly SweepRow[];
  openId: string | undefined;
  onOpen: (id: string) => void;
}

export function SavedSweeps({ rows, openId, onOpen }: SavedSweepsProps) {
  const [deleting, setDeleting] = useState<SweepRow>();
  const [error, setError] = useState<string>();
  if (rows.length === 0) return <p className="muted small" data-testid="sweep.saved.empty">No saved sweep yet: each sweep is saved here when it ends.</p>;
  return (
    <div className="saved" data-testid="sweep.saved">
      <h3>Saved sweeps ({rows.length})</h3>
      <ul className="saved-list">
        {rows.map((row) => (
          <li key={row.id} className={row.id === openId ? 'selected' : undefined} data-testid="sweep.saved.item" data-id={row.id}>
            <button type="button" className="link" onClick={() => onOpen(row.id)} aria-current={row.id === openId} data-testid="sweep.saved.open">{row.name}</button>
            <span className="muted small">
              {' '}{new Date(row.createdAt).toLocaleString()} · {row.points.length} point{row.points.length === 1 ? '' : 's'}{row.cancelled ? ' (cancelled)' : ''} · {row.sessions.length} session{row.sessions.length === 1 ? '' : 's'}
            </span>
            <span className="item-actions">
              <button type="button" className="small" onClick={() => setDeleting(row)} data-testid="sweep.saved.delete" aria-label={`Delete ${row.name}`}>Delete</button>
            </span>
          </li>
        ))}
      </ul>
      {error && <p className="error small" role="alert">{error}</p>}
      {deleting && (
        <ConfirmDialog
          title="Delete this sweep?"
          message={`"${deleting.name}" and its points will be removed from this browser. The sessions are not affected.`}
          confirmLabel="Delete"
          onConfirm={() => {
            deleteSavedSweep(deleting.id).catch((e: unknown) => setError(`Could not delete: ${e instanceof Error ? e.message : String(e)}`));
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
