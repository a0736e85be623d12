/**
 * The probes' judged mode for one saved comparison: "Judge with model" asks the worker for an
 * estimate (requests, tokens, cost), the user confirms, the run shows its progress with Cancel,
 * and the grades appear below. Needs a model from Settings > Models: offline cannot judge.
 */
import { formatUsd } from '../../store/view/prices.ts';
import { cancelJudge, dismissJudgeQuote, estimateJudge, runJudge } from '../../store/judge-actions.ts';
import type { JudgeRunState } from '../../store/judge-slice.ts';
import { useAppStore } from '../../store/store.ts';
import { modelLabel } from '../../store/summarizer-request.ts';
import type { JudgeQuote } from '../../worker/judge/judge-protocol.ts';
import { ProgressBar } from '../common/ProgressBar.tsx';
import { JudgeGrades } from './JudgeGrades.tsx';

const fmt = (n: number) => n.toLocaleString('en-US');

export function JudgePanel({ row, dismissed }: { row: { id: string }; dismissed: readonly string[] }) {
  const summarizerKind = useAppStore((s) => s.summarizerKind);
  const remote = useAppStore((s) => s.remote);
  const localModelId = useAppStore((s) => s.localModelId);
  const setSettingsOpen = useAppStore((s) => s.setSettingsOpen);
  const quote = useAppStore((s) => (s.judgeQuote?.comparisonId === row.id ? s.judgeQuote : undefined));
  const run = useAppStore((s) => s.judgeRun);
  const result = useAppStore((s) => s.judgeResults[row.id]);
  const error = useAppStore((s) => (s.judgeError?.comparisonId === row.id ? s.judgeError : undefined));
  const setError = useAppStore((s) => s.setJudgeError);
  const model = modelLabel({ summarizerKind, remote, localModelId });
  const mine = run?.comparisonId === row.id;
  const busy = run !== undefined || (quote !== undefined && quote.quote === undefined);

  return (
    <section className="judge" data-testid="compare.judge" aria-label="Judged mode">
      <p className="small muted">
        A model answers one question per probe category from each final context, and grades each answer 0-5 against the facts read from the full
        transcript. Answers and grades are cached: judging again costs nothing.
      </p>
      <div className="actions">
        <button
          type="button"
          onClick={() => void estimateJudge(row.id, dismissed)}
          disabled={model === undefined || busy}
          data-testid="compare.judge.start"
          title={model === undefined ? 'Choose a remote or local model in Settings > Models first' : `Estimate the cost of judging with ${model}`}
        >
          Judge with model
        </button>
        {model === undefined ? (
          <span className="muted small" data-testid="compare.judge.unavailable">
            The offline summarizer cannot judge: it answers no questions.{' '}
            <button type="button" className="link" onClick={() => setSettingsOpen(true)} data-testid="compare.judge.settings">Choose a model in Settings</button>
          </span>
        ) : (
          <span className="muted small" data-testid="compare.judge.model">Answers and grades by {model}.</span>
        )}
        {run && !mine && <span className="muted small">Another comparison is being judged.</span>}
      </div>
      {quote && (quote.quote ? <Quote quote={quote.quote} onRun={() => void runJudge(row.id, dismissed)} /> : <p className="muted small" data-testid="compare.judge.estimating">Counting the prompts…</p>)}
      {mine && run && <JudgeProgressBar run={run} />}
      {error && (
        <p className={error.cancelled ? 'warn' : 'error'} role="alert" data-testid={error.cancelled ? 'compare.judge.cancelled' : 'compare.judge.error'}>
          {error.message}{' '}
          <button type="button" className="link small" onClick={() => setError(undefined)} aria-label="Dismiss this message">Dismiss</button>
        </p>
      )}
      {result && <JudgeGrades result={result} />}
    </section>
  );
}

function Quote({ quote, onRun }: { quote: JudgeQuote; onRun: () => void }) {
  const cost = quote.local ? 'runs on this device: no cost, only time' : quote.cost === null ? `no price known for ${quote.modelLabel}` : `about ${formatUsd(quote.cost)} at most, at ${quote.priceModel ?? ''} prices`;
  return (
    <div className="judge-quote" role="group" aria-label="Estimate" data-testid="compare.judge.quote" data-requests={quote.requests} data-input={quote.inputTokens} data-output={quote.outputTokens} data-cost={quote.cost ?? ''}>
      <p className="small">
        <strong>{fmt(quote.questions)}</strong> question{quote.questions === 1 ? '' : 's'}
        {quote.cached > 0 && <> ({fmt(quote.cached)} already judged)</>} · <strong data-testid="compare.judge.quote.requests">{fmt(quote.requests)}</strong> request{quote.requests === 1 ? '' : 's'} to {quote.modelLabel} ·{' '}
        {fmt(quote.inputTokens)} input tokens ({quote.counter}), at most {fmt(quote.outputTokens)} output · <span data-testid="compare.judge.quote.cost">{cost}</span>
      </p>
      {quote.clipped.length > 0 && <p className="warn small">The final context of {quote.clipped.join(', ')} is longer than what is sent: its middle is left out.</p>}
      {quote.skipped.length > 0 && <p className="muted small">Not judged: {quote.skipped.map((skip) => `${skip.label} (${skip.reason})`).join('; ')}.</p>}
      <div className="actions">
        <button type="button" className="primary" onClick={onRun} data-testid="compare.judge.confirm">
          {quote.requests === 0 ? 'Show the cached grades' : `Run ${fmt(quote.requests)} request${quote.requests === 1 ? '' : 's'}`}
        </button>
        <button type="button" onClick={dismissJudgeQuote} data-testid="compare.judge.dismiss">Not now</button>
      </div>
    </div>
  );
}

function JudgeProgressBar({ run }: { run: JudgeRunState }) {
  const p = run.progress;
  const detail = p ? `question ${Math.min(p.done + 1, p.total)} of ${p.total} · ${p.label} · ${p.category} · ${p.phase}` : 'reading the comparison and the cache…';
  return (
    <div data-testid="compare.judge.progress" data-done={p?.done ?? 0}>
      <ProgressBar
        job={{ id: run.jobId, label: 'Judging', progress: { jobId: run.jobId, phase: 'summarizing', done: p?.done ?? 0, total: p?.total ?? 1, unit: 'summaries' } }}
        detail={detail}
        onCancel={cancelJudge}
      />
    </div>
  );
}
