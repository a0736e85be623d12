/**
 * Back up the whole library to one file, and restore one (into an empty library or merged: a
 * conversation already here is not duplicated). A damaged or foreign file is refused with the line
 * and the reason, and nothing is changed. API keys live in another database and are never included.
 * A backup restores data only: its hook module or plugin waits, disabled, under Compact; its
 * provider settings apply only when "restore settings too" is ticked and its endpoints confirmed.
 */
import { useRef, useState } from 'react';
import type { ParsedBackup } from '../../db/backup-format.ts';
import { errorMessage } from '../../store/actions.ts';
import { backupEndpoints, backupLibrary, readBackupFile, restoreLibrary, type BackupEndpoint } from '../../store/library-actions.ts';
import { restoreSummary } from './restore-summary.ts';

type Status = { kind: 'busy'; text: string } | { kind: 'done'; text: string } | { kind: 'error'; text: string };

/** A read backup whose provider settings wait for the user to confirm their endpoints. */
interface Confirming {
  name: string;
  backup: ParsedBackup;
  endpoints: BackupEndpoint[];
}

export function BackupControls() {
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>();
  const [withSettings, setWithSettings] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>();
  const busy = status?.kind === 'busy' || confirming !== undefined;

  const backup = async () => {
    setStatus({ kind: 'busy', text: 'Writing the backup…' });
    try {
      const file = await backupLibrary();
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

  const write = async (name: string, backup: ParsedBackup, settings: boolean) => {
    setConfirming(undefined);
    setStatus({ kind: 'busy', text: `Restoring ${name}…` });
    try {
      const outcome = await restoreLibrary(backup, settings);
      setStatus({ kind: 'done', text: restoreSummary(outcome.report, outcome.settings, outcome.unchecked) });
    } catch (error) {
      setStatus({ kind: 'error', text: `${name} was not restored, and nothing was changed. ${errorMessage(error)}` });
    }
  };

  const restore = async (file: File) => {
    setStatus({ kind: 'busy', text: `Reading ${file.name}…` });
    let backup: ParsedBackup;
    try {
      backup = await readBackupFile(file);
    } catch (error) {
      setStatus({ kind: 'error', text: `${file.name} was not restored, and nothing was changed. ${errorMessage(error)}` });
      return;
    }
    const endpoints = withSettings ? backupEndpoints(backup) : [];
    if (endpoints.length > 0) {
      setStatus(undefined);
      setConfirming({ name: file.name, backup, endpoints });
      return;
    }
    await write(file.name, backup, withSettings);
  };

  return (
    <section className="backup" aria-label="Library backup">
      <div className="actions">
        <button type="button" onClick={() => void backup()} disabled={busy} data-testid="library.backup">Back up library</button>
        <button type="button" onClick={() => input.current?.click()} disabled={busy} data-testid="library.restore">Restore…</button>
        <label className="inline small">
          <input type="checkbox" checked={withSettings} onChange={(e) => setWithSettings(e.target.checked)} disabled={busy} data-testid="library.restore-settings" />
          {' '}Restore settings too (provider, base URLs, models)
        </label>
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
      {confirming && (
        <div className="confirm" role="alertdialog" aria-label="Confirm the backup's endpoints" data-testid="library.restore-endpoints">
          <p className="small">{confirming.name} would send model requests to these endpoints. Apply them only if you trust them; a remembered key is never sent to an endpoint it was not entered for.</p>
          <ul className="small">
            {confirming.endpoints.map((endpoint) => (
              <li key={endpoint.label}>{endpoint.label}: <code>{endpoint.url}</code></li>
            ))}
          </ul>
          <div className="actions">
            <button type="button" onClick={() => void write(confirming.name, confirming.backup, true)} data-testid="library.restore-endpoints.apply">Apply these settings</button>
            <button type="button" onClick={() => void write(confirming.name, confirming.backup, false)} data-testid="library.restore-endpoints.keep">Restore without them</button>
            <button type="button" className="link small" onClick={() => setConfirming(undefined)} data-testid="library.restore-endpoints.cancel">Cancel</button>
          </div>
        </div>
      )}
      {status && (
        <p className={status.kind === 'error' ? 'error small' : 'small'} role={status.kind === 'error' ? 'alert' : 'status'} data-testid="library.backup-status">
          {status.text}
        </p>
      )}
    </section>
  );
}
