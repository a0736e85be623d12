/**
 * Where the fold's block indexes come from: extraction (offline, the default) or the model chosen
 * in Settings, with the optional self-check (F10); the model's progress, and the notes saying
 * which blocks kept the offline summary and why.
 */
import type { FoldSummaryView } from '../../worker/fold/fold-protocol.ts';
import type { JobProgress } from '../../worker/engine/protocol.ts';

/** Notes listed at most; the rest are counted. */
const MAX_NOTES = 20;

export interface FoldSummariesControlProps {
  useModel: boolean;
  onUseModel: (useModel: boolean) => void;
  selfCheck: boolean;
  onSelfCheck: (selfCheck: boolean) => void;
  /** The model Settings names, or undefined when Settings is offline. */
  model: string | undefined;
  progress: Pick<JobProgress, 'done' | 'total' | 'tokensPerSecond'> | undefined;
  view: FoldSummaryView | undefined;
  onOpenSettings: () => void;
}

export function FoldSummariesControl({ useModel, onUseModel, selfCheck, onSelfCheck, model, progress, view, onOpenSettings }: FoldSummariesControlProps) {
  const active = useModel && model !== undefined;
  const notes = view?.notes ?? [];
  return (
    <>
      <div className="actions">
        <label className="field inline">
          <span>Summaries</span>
          <select value={active ? 'model' : 'offline'} onChange={(e) => onUseModel(e.target.value === 'model')} data-testid="fold.summarizer">
            <option value="offline">offline (extraction)</option>
            <option value="model" disabled={model === undefined}>{model ? `model from Settings: ${model}` : 'model from Settings (none chosen)'}</option>
          </select>
        </label>
        {active && (
          <label className="field inline">
            <input type="checkbox" checked={selfCheck} onChange={(e) => onSelfCheck(e.target.checked)} data-testid="fold.selfcheck" />
            <span>Self-check each summary</span>
          </label>
        )}
        {model === undefined && <button type="button" className="link small" onClick={onOpenSettings}>Choose a model</button>}
        {active && progress && (
          <span className="small" role="status" data-testid="fold.progress">
            Model summaries {progress.done}/{progress.total}{progress.tokensPerSecond ? ` · ${progress.tokensPerSecond.toFixed(1)} tok/s` : ''}…
          </span>
        )}
        {active && !progress && view && (
          <span className="muted small" data-testid="fold.model-count">{view.modelSummaries.made} made by the model, {view.modelSummaries.reused} reused</span>
        )}
      </div>
      {active && notes.length > 0 && (
        <div className="small" role="status" data-testid="fold.notes">
          <ul>
            {notes.slice(0, MAX_NOTES).map((note, i) => <li key={i}>{note}</li>)}
          </ul>
          {notes.length > MAX_NOTES && <p className="muted">…and {notes.length - MAX_NOTES} more.</p>}
        </div>
      )}
    </>
  );
}
