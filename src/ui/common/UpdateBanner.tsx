/**
 * The banner a new deployed version raises: "A new version is available — reload". While a job runs
 * the Reload button is disabled and names what it waits for, so code is never swapped under a job.
 */
export interface UpdateBannerProps {
  /** Labels of the jobs running now (runningJobLabels); reload waits until it is empty. */
  running: readonly string[];
  onReload: () => void;
  onDismiss: () => void;
}

export function UpdateBanner({ running, onReload, onDismiss }: UpdateBannerProps) {
  const busy = running.length > 0;
  return (
    <div className="app-status-card" role="status" data-testid="update.prompt">
      <p>A new version is available — reload to use it.</p>
      {busy && (
        <p className="muted small" data-testid="update.waiting">
          Reload waits until this finishes: {running.join(', ')}.
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={onReload} disabled={busy} data-testid="update.reload">
          Reload
        </button>
        <button type="button" onClick={onDismiss} data-testid="update.later">
          Later
        </button>
      </div>
    </div>
  );
}
