/**
 * Setting up a live session: the folder, the model, the strategy with its options (the Compact
 * tab's form), the window and the .gitignore choice. Start stores the session and opens its Live
 * tab; nothing is stored when the model cannot be made.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { StrategyId } from '../../core/compaction/types.ts';
import { COUNTER_LABELS } from '../../store/view/vocabulary.ts';
import { getStrategy, optionProblem, STRATEGY_IDS } from '../../store/view/strategies.ts';
import type { LiveModelChoice } from '../../db/live-session-row.ts';
import { startLiveSession } from '../../store/live-actions.ts';
import { useAppStore } from '../../store/store.ts';
import { OptionsForm } from '../strategies/OptionsForm.tsx';
import type { PickedFolder } from '../../store/live-folder.ts';
import { LiveFolderField } from './LiveFolderField.tsx';
import { LiveModelField, loadDemoScript, type ModelDraft } from './LiveModelField.tsx';
import './live.css';

/** The custom strategy needs a plugin run per plan: not offered for a live session. */
const LIVE_STRATEGIES = STRATEGY_IDS.filter((id) => id !== 'custom');

export function LiveSetupDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const counter = useAppStore((s) => s.counter);
  const appWindow = useAppStore((s) => s.windowTokens);
  const appStrategy = useAppStore((s) => s.strategy);
  const [picked, setPicked] = useState<PickedFolder>();
  const [model, setModel] = useState<ModelDraft>({ kind: 'demo' });
  const [strategyId, setStrategyId] = useState<StrategyId>(appStrategy === 'custom' ? 'pi' : appStrategy);
  const [values, setValues] = useState<Record<string, string>>({});
  const [contextWindow, setContextWindow] = useState(String(appWindow));
  const [gitignore, setGitignore] = useState(true);
  const [paste, setPaste] = useState(false);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string>();
  const [starting, setStarting] = useState(false);
  /** Loading the local model onto the GPU as the session starts. */
  const [loading, setLoading] = useState<{ progress: number; text: string }>();
  const strategy = getStrategy(strategyId);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const optionError = useMemo(() => optionProblem(strategyId, values), [strategyId, values]);

  const windowTokens = Number(contextWindow);
  const windowError = Number.isInteger(windowTokens) && windowTokens >= 1000 ? undefined : 'The window is a whole number of tokens, at least 1,000.';
  const ready = picked !== undefined && !optionError && !windowError && !(model.kind === 'script' && !model.choice) && !starting;

  const start = async () => {
    if (!picked) return;
    setStarting(true);
    setError(undefined);
    try {
      const choice: LiveModelChoice = model.kind === 'demo' ? await loadDemoScript()
        : model.kind === 'local' ? { kind: 'webllm', modelId: model.modelId }
        : model.kind === 'script' && model.choice ? model.choice : { kind: 'settings', label: '' };
      await startLiveSession({
        title: title.trim() || `Live: ${picked.folder.name}`,
        picked,
        config: { model: choice, strategy: strategyId, options: values, contextWindow: windowTokens, counter, gitignore, mentions: paste ? 'paste' : 'reminder' },
        onModelProgress: (report) => setLoading({ progress: report.progress, text: report.text }),
      });
      ref.current?.close();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setStarting(false);
      setLoading(undefined);
    }
  };

  return (
    <dialog ref={ref} className="dialog live-setup" onClose={onClose} aria-labelledby="live-setup-title" data-testid="live.setup">
      <h2 id="live-setup-title">New live session</h2>
      <LiveFolderField picked={picked} onPick={(p) => { setPicked(p); setError(undefined); }} onError={setError} />
      <LiveModelField draft={model} onChange={setModel} />
      <fieldset className="options">
        <legend>Compaction</legend>
        <label className="field">
          <span>Strategy</span>
          <select value={strategyId} onChange={(e) => { setStrategyId(e.target.value as StrategyId); setValues({}); }} data-testid="live.setup.strategy">
            {LIVE_STRATEGIES.map((id) => (
              <option key={id} value={id}>{getStrategy(id).label}</option>
            ))}
          </select>
        </label>
        <p className="muted small">{strategy.description}</p>
        <label className="field">
          <span>Context window (tokens, {COUNTER_LABELS[counter]})</span>
          <input type="text" inputMode="numeric" value={contextWindow} onChange={(e) => setContextWindow(e.target.value)} aria-invalid={windowError !== undefined} data-testid="live.setup.window" />
        </label>
        {windowError && <p className="error small" role="alert">{windowError}</p>}
      </fieldset>
      <details className="live-setup-options" data-testid="live.setup.options">
        <summary>Options of {strategy.label}</summary>
        <OptionsForm
          specs={strategy.options}
          values={values}
          error={optionError}
          onChange={(name, value) => setValues((current) => {
            const next = { ...current };
            if (value === undefined) delete next[name];
            else next[name] = value;
            return next;
          })}
          onReset={() => setValues({})}
        />
      </details>
      <label className="field inline">
        <input type="checkbox" checked={gitignore} onChange={(e) => setGitignore(e.target.checked)} data-testid="live.setup.gitignore" />
        <span>Honour the folder's .gitignore files (ignored paths are neither listed nor read)</span>
      </label>
      <label className="field inline">
        <input type="checkbox" checked={paste} onChange={(e) => setPaste(e.target.checked)} data-testid="live.setup.paste-mentions" />
        <span>Paste the files an @mention names into the message (at most 5, 500 lines each); otherwise the message only names them and the model reads them</span>
      </label>
      <label className="field">
        <span>Name</span>
        <input type="text" value={title} placeholder={picked ? `Live: ${picked.folder.name}` : 'Live: <folder>'} onChange={(e) => setTitle(e.target.value)} data-testid="live.setup.title" />
      </label>
      {loading && (
        <div className="progress" role="status" data-testid="live.setup.model-progress">
          <span className="small">Loading the local model: {Math.round(loading.progress * 100)}%</span>
          <progress max={1} value={loading.progress} aria-label="Loading the local model" />
          <span className="muted small">{loading.text}</span>
        </div>
      )}
      {error && <p className="error" role="alert" data-testid="live.setup.error">{error}</p>}
      <div className="dialog-actions">
        <button type="button" onClick={() => ref.current?.close()} data-testid="live.setup.cancel">Cancel</button>
        <button type="button" className="primary" disabled={!ready} onClick={() => void start()} data-testid="live.setup.start">
          {starting ? 'Starting…' : 'Start'}
        </button>
      </div>
    </dialog>
  );
}
