/** A labelled progress bar for a worker job, with a Cancel button. */
import type { JobState } from '../../store/library-slice.ts';
import { JobWaitNotice } from './JobWaitNotice.tsx';
import { formatNumber } from './format.ts';

function formatAmount(done: number, unit: 'bytes' | 'entries' | 'summaries'): string {
  if (unit === 'bytes') return `${(done / 1024 / 1024).toFixed(1)} MB`;
  if (unit === 'summaries') return `${done} summar${done === 1 ? 'y' : 'ies'}`;
  return `${formatNumber(done)} entries`;
}

/** `detail` replaces the phase and amount text when the job's unit does not describe it (a compare counts calls). */
export function ProgressBar({ job, onCancel, detail }: { job: JobState; onCancel?: () => void; detail?: string }) {
  const progress = job.progress;
  const fraction = progress && progress.total > 0 ? Math.min(1, progress.done / progress.total) : undefined;
  return (
    <div className="progress" role="status" data-testid="job.progress" aria-live="polite">
      <div className="progress-label">
        <span>{job.label}</span>
        {progress && (
          <span className="muted">
            {progress.phase === 'waiting' ? (
              <span data-testid="job.waiting">running in another tab: waits for it to finish (or Cancel)</span>
            ) : (
              (detail ?? `${progress.phase} · ${formatAmount(progress.done, progress.unit)}`)
            )}
            {fraction !== undefined && progress.phase !== 'waiting' && ` (${Math.round(fraction * 100)}%)`}
          </span>
        )}
        <JobWaitNotice wait={progress?.wait} />
        {onCancel && (
          <button type="button" className="link" onClick={onCancel} data-testid="job.cancel">
            Cancel
          </button>
        )}
      </div>
      <progress max={1} value={fraction} aria-label={job.label} />
      {progress?.partial && (
        <pre className="stream small" data-testid="job.stream" aria-live="off">
          {progress.partial.slice(-600)}
          {progress.tokensPerSecond ? `\n— ${progress.tokensPerSecond.toFixed(1)} tok/s` : ''}
        </pre>
      )}
    </div>
  );
}
