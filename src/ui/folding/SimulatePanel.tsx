/**
 * Simulate (F13): pick a range of iterations, a level and a summarizer, and see what folding that
 * range into one block would save — the range now and after, the context before and after, and the
 * block's text — without changing the fold shown above. A form: Enter runs it, Escape cancels.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../../store/actions.ts';
import { summarizerFields } from '../../store/summarizer-request.ts';
import { cancelFoldJob, foldJobId, simulateFold } from '../../store/fold-actions.ts';
import type { FoldRequest, FoldSimulateView } from '../../worker/fold/fold-protocol.ts';
import type { JobProgress } from '../../worker/engine/protocol.ts';

/** Iterations in the range offered first (the last ones before the replay position). */
const DEFAULT_SPAN = 20;
const LEVELS = [
  { level: 2, label: 'L2 summary' },
  { level: 3, label: 'L3 chapter index' },
  { level: 4, label: 'L4 phase line' },
] as const;

export interface SimulatePanelProps {
  /** The fold shown: same branch, position, options and recalls. */
  request: Omit<FoldRequest, 'summarizer'>;
  /** Iterations folded as of the position (the range must lie within them). */
  iterations: number;
  /** The model Settings names, or undefined when Settings is offline. */
  model: string | undefined;
}

const format = (n: number) => n.toLocaleString('en-US');
const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

export function SimulatePanel({ request, iterations, model }: SimulatePanelProps) {
  const [from, setFrom] = useState(String(Math.max(0, iterations - DEFAULT_SPAN)));
  const [to, setTo] = useState(String(Math.max(0, iterations - 1)));
  const [level, setLevel] = useState<2 | 3 | 4>(2);
  const [useModel, setUseModel] = useState(false);
  const [result, setResult] = useState<FoldSimulateView>();
  const [error, setError] = useState<string>();
  const [progress, setProgress] = useState<JobProgress>();
  const running = useRef<string | undefined>(undefined);
  useEffect(() => () => {
    if (running.current) cancelFoldJob(running.current);
  }, []);

  const cancel = () => {
    if (running.current) cancelFoldJob(running.current);
  };
  const run = async (event: FormEvent) => {
    event.preventDefault();
    const range = { from: Number(from), to: Number(to) };
    if (!Number.isInteger(range.from) || !Number.isInteger(range.to) || range.from < 0 || range.to < range.from || range.to >= iterations) {
      setError(`Pick a range within iterations 0-${iterations - 1}, the first one first.`);
      return;
    }
    cancel();
    const jobId = foldJobId('simulate');
    running.current = jobId;
    setError(undefined);
    setProgress({ jobId, phase: 'summarizing', done: 0, total: 1, unit: 'summaries' });
    try {
      const fields = useModel && model !== undefined ? await summarizerFields() : { summarizer: 'offline' as const };
      const view = await simulateFold({ ...request, ...fields, jobId, range, level }, (p: JobProgress) => running.current === jobId && setProgress(p));
      if (running.current !== jobId) return;
      setResult(view);
    } catch (err) {
      if (running.current === jobId) setError(errorMessage(err));
    } finally {
      if (running.current === jobId) {
        running.current = undefined;
        setProgress(undefined);
      }
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && progress) cancel();
  };

  return (
    <details className="fold-simulate" data-testid="fold.simulate">
      <summary>Simulate folding a range</summary>
      <form className="actions" onSubmit={(e) => void run(e)} onKeyDown={onKeyDown} aria-label="Simulate folding a range" noValidate>
        <label className="field inline">
          <span>From iteration</span>
          <input type="number" min={0} max={Math.max(0, iterations - 1)} value={from} onChange={(e) => setFrom(e.target.value)} data-testid="fold.simulate.from" />
        </label>
        <label className="field inline">
          <span>to</span>
          <input type="number" min={0} max={Math.max(0, iterations - 1)} value={to} onChange={(e) => setTo(e.target.value)} data-testid="fold.simulate.to" />
        </label>
        <label className="field inline">
          <span>into one</span>
          <select value={level} onChange={(e) => setLevel(Number(e.target.value) as 2 | 3 | 4)} data-testid="fold.simulate.level">
            {LEVELS.map((l) => <option key={l.level} value={l.level}>{l.label}</option>)}
          </select>
        </label>
        <label className="field inline">
          <span>by</span>
          <select value={useModel && model !== undefined ? 'model' : 'offline'} onChange={(e) => setUseModel(e.target.value === 'model')} data-testid="fold.simulate.summarizer">
            <option value="offline">offline (extraction)</option>
            <option value="model" disabled={model === undefined}>{model ? `model from Settings: ${model}` : 'model from Settings (none chosen)'}</option>
          </select>
        </label>
        <button type="submit" disabled={progress !== undefined} data-testid="fold.simulate.run">Simulate</button>
        {progress && (
          <>
            <span className="small" role="status" data-testid="fold.simulate.progress">
              Summarizing…{progress.tokensPerSecond ? ` ${progress.tokensPerSecond.toFixed(1)} tok/s` : ''}
            </span>
            <button type="button" className="link" onClick={cancel} data-testid="fold.simulate.cancel">Cancel</button>
          </>
        )}
      </form>
      {error && <p className="error" role="alert" data-testid="fold.simulate.error">{error}</p>}
      {result && (
        <div data-testid="fold.simulate.result" aria-live="polite">
          <table className="small">
            <caption>
              Iterations {result.from}-{result.to} as one L{result.level} block, by {result.summarizer}{result.source === 'offline' && result.summarizer !== 'offline' ? ' (fell back to offline)' : ''}; the fold above is unchanged.
            </caption>
            <tbody>
              <tr><th scope="row">Levels now</th><td>{result.levelsBefore.map((n, l) => (n ? `L${l}×${n}` : '')).filter(Boolean).join(' ')}</td></tr>
              <tr><th scope="row">Range</th><td data-testid="fold.simulate.range">{format(result.range.before)} tokens now ({format(result.range.original)} in full) → <strong>{format(result.range.after)}</strong></td></tr>
              <tr><th scope="row">Context</th><td data-testid="fold.simulate.context">{format(result.context.before)} → <strong>{format(result.context.after)}</strong></td></tr>
              <tr><th scope="row">Savings</th><td data-testid="fold.simulate.savings">{format(result.savings.tokens)} tokens ({percent(result.savings.ofRange)} of the range, {percent(result.savings.ofContext)} of the context)</td></tr>
            </tbody>
          </table>
          {result.note && <p className="small muted">{result.note}</p>}
          <pre className="small" data-testid="fold.simulate.text">{result.text}</pre>
        </div>
      )}
    </details>
  );
}
