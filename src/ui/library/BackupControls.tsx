/**
 * Back up the whole library to one file, and restore one (into an empty library or merged: a
 * conversation already here is not duplicated). A damaged or foreign file is refused with the line
 * and the reason, and nothing is changed. API keys live in another database and are never included.
 */
import { useRef, useState } from 'react';
import { exportBackup, readBackup, restoreBackup, type RestoreReport } from '../../db/backup.ts';
import { db } from '../../db/db.ts';
import { errorMessage } from '../../store/actions.ts';
import { adoptStoredPreferences } from '../../store/preferences-storage.ts';
import { useAppStore } from '../../store/store.ts';

type Status = { kind: 'busy'; text: string } | { kind: 'done'; text: string } | { kind: 'error'; text: string };

function describe(report: RestoreReport): string {
  const rows = Object.values(report.written).reduce((a, b) => a + b, 0);
  const parts = [`Restored ${report.added} conversation${report.added === 1 ? '' : 's'}`];
  if (report.existing > 0) parts.push(`${report.existing} already in the library (kept, not duplicated)`);
  return `${parts.join('; ')}; ${rows.toLocaleString('en-US')} rows written.${report.skipped.length ? ` ${report.skipped.join(' ')}` : ''}`;
}

export function BackupControls() {
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>();
  const busy = status?.kind === 'busy';

  const backup = async () => {
    setStatus({ kind: 'busy', text: 'Writing the backup…' });
    try {
      const file = await exportBackup(db);
      const url = URL.createObjectURL(file);
      const link = document.createElement('a');
      link.href = url;
      link.download = `foldlab-backup-${new Date().toISOString().slice(0, 10)}.jsonl`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setStatus({ kind: 'done', text: `Backup saved (${(file.size / 1e6).toFixed(1)} MB). It holds no API keys.` });
    } catch (error) {
      setStatus({ kind: 'error', text: `The backup failed: ${errorMessage(error)}` });
    }
  };

  const restore = async (file: File) => {
    setStatus({ kind: 'busy', text: `Reading ${file.name}…` });
    try {
      const report = await restoreBackup(db, await readBackup(file));
      if (await adoptStoredPreferences()) await useAppStore.persist.rehydrate();
      setStatus({ kind: 'done', text: describe(report) });
    } catch (error) {
      setStatus({ kind: 'error', text: `${file.name} was not restored, and nothing was changed. ${errorMessage(error)}` });
    }
  };

  return (
    <section className="backup" aria-label="Library backup">
      <div className="actions">
        <button type="button" onClick={() => void backup()} disabled={busy} data-testid="library.backup">Back up library</button>
        <button type="button" onClick={() => input.current?.click()} disabled={busy} data-testid="library.restore">Restore…</button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".jsonl,.ndjson,application/x-ndjson"
          data-testid="library.restore-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void restore(file);
            event.target.value = '';
          }}
        />
      </div>
      {status && (
        <p className={status.kind === 'error' ? 'error small' : 'small'} role={status.kind === 'error' ? 'alert' : 'status'} data-testid="library.backup-status">
          {status.text}
        </p>
      )}
    </section>
  );
}
