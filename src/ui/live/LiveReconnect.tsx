/**
 * A live session opened after a reload (or in another tab): its journal is stored, but the folder
 * must be opened again. A kept folder handle is offered again (the browser may ask for read
 * permission once more); a snapshot folder could not be kept, so the user picks it again.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { liveSessionRow } from '../../store/library-reads.ts';
import { useLiveStore } from '../../store/live-store.ts';
import { resumeLiveSession } from '../../store/live-actions.ts';
import { canPickLiveFolder, folderPermission, pickLiveFolder, reopenHandle, snapshotFolder, type PickedFolder } from '../../store/live-folder.ts';

export function LiveReconnect({ conversationId }: { conversationId: string }) {
  const row = useLiveQuery(() => liveSessionRow(conversationId), [conversationId]);
  const [error, setError] = useState<string>();
  /** Why the session stopped in this tab (its worker, or the engine holding its local model, stopped). */
  const stopped = useLiveStore((s) => s.runtimes[conversationId]?.error);
  const [busy, setBusy] = useState(false);
  /** A session on the local model loads it again (from the browser's cache) before it continues. */
  const [loading, setLoading] = useState<string>();
  /** Whether the browser will ask again for permission to read the kept folder (asked without a gesture). */
  const [permission, setPermission] = useState<PermissionState>();
  const handle = row?.folder.handle;
  useEffect(() => {
    if (!handle) return;
    let current = true;
    folderPermission(handle).then((state) => current && setPermission(state), () => current && setPermission('prompt'));
    return () => {
      current = false;
    };
  }, [handle]);
  /** `open` gives undefined when the user cancels the picker. */
  const resume = async (open: () => Promise<PickedFolder | undefined> | PickedFolder) => {
    setBusy(true);
    setError(undefined);
    try {
      const picked = await open();
      if (!picked) return;
      await resumeLiveSession(conversationId, picked, (report) => setLoading(`Loading the local model: ${Math.round(report.progress * 100)}% · ${report.text}`));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      setLoading(undefined);
    }
  };
  if (row === undefined) return <p className="muted">Loading the live session…</p>;
  const canPick = canPickLiveFolder();
  return (
    <section className="live-reconnect" aria-labelledby="live-reconnect-title" data-testid="live.reconnect">
      <h3 id="live-reconnect-title">Continue this live session</h3>
      {stopped && <p className="error" role="alert" data-testid="live.reconnect.stopped">{stopped}</p>}
      <p className="small">
        Its journal is stored; the agent needs its folder <strong>{row.folder.name}</strong> again.
        {row.folder.snapshot && !handle && ' It was read as a snapshot (a copy taken when it was picked), which cannot be kept across a reload: pick the same folder again.'}
      </p>
      {handle && (
        <button type="button" className="primary" disabled={busy} onClick={() => void resume(() => reopenHandle(handle))} data-testid="live.reconnect.handle">
          Open {row.folder.name} again
        </button>
      )}
      {handle && permission !== undefined && permission !== 'granted' && (
        <p className="small" data-testid="live.reconnect.permission">
          The browser asks again for permission to read <strong>{row.folder.name}</strong>: allow it when it asks.
        </p>
      )}
      {canPick && (
        <button type="button" disabled={busy} onClick={() => void resume(pickLiveFolder)} data-testid="live.reconnect.pick">
          Pick the folder again…
        </button>
      )}
      <label className="field">
        <span className="small">{handle ? 'or read the folder as a snapshot' : 'The folder, read as a snapshot'}</span>
        <input
          type="file"
          {...{ webkitdirectory: '', directory: '' }}
          multiple
          disabled={busy}
          onChange={(event) => {
            const files = event.target.files;
            if (files) void resume(() => snapshotFolder(files));
          }}
          data-testid="live.reconnect.input"
        />
      </label>
      {loading && <p className="small muted" role="status" data-testid="live.reconnect.model-progress">{loading}</p>}
      {error && <p className="error" role="alert" data-testid="live.reconnect.error">{error}</p>}
    </section>
  );
}
