/**
 * What the running session is doing right now: the reply as it streams (tokens per second), the
 * tool calls of this turn with their outcome, what a reply waits for (a 429, the network: the
 * Compact job's wait line), compaction progress (it blocks input, L11), and the
 * session's notes (overflow retry, recovery failed, the 120 s fallback), calls and cost.
 */
import { formatUsd, PRICES_AS_OF } from '../../store/view/prices.ts';
import type { LiveRuntime } from '../../store/live-store.ts';
import { formatNumber } from '../common/format.ts';
import { JobWaitNotice } from '../common/JobWaitNotice.tsx';

const PHASES: Record<LiveRuntime['phase'], string> = { idle: 'idle', calling: 'waiting for the model', tool: 'running a tool', compacting: 'compacting' };

function inputText(input: unknown): string {
  if (input === undefined) return '';
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

export function LiveStats({ runtime }: { runtime: LiveRuntime }) {
  // Drawn at every streamed piece: one shared formatter, not a new one per number.
  const fmt = formatNumber;
  return (
    <p className="small live-stats" data-testid="live.stats">
      <span data-testid="live.phase">{runtime.busy ? PHASES[runtime.phase] : 'ready'}</span>
      {' · '}
      {runtime.model || 'model'} · <span data-testid="live.calls">{fmt(runtime.calls)}</span> calls
      {runtime.contextTokens !== undefined && <> · last context {fmt(runtime.contextTokens)} tokens</>}
      {' · '}
      <span data-testid="live.tps">{runtime.tokensPerSecond !== undefined ? `${runtime.tokensPerSecond.toFixed(1)} tok/s (chars/4)` : '— tok/s'}</span>
      {' · '}
      <span data-testid="live.cost">
        {runtime.costUsd !== undefined ? `${formatUsd(runtime.costUsd)} at ${PRICES_AS_OF} prices` : runtime.usage.input + runtime.usage.output > 0 ? 'no price known for this model' : 'no cost yet'}
      </span>
      {runtime.usage.input + runtime.usage.output > 0 && <> ({fmt(runtime.usage.input)} in, {fmt(runtime.usage.output)} out)</>}
    </p>
  );
}

export function LiveActivity({ runtime }: { runtime: LiveRuntime }) {
  const progress = runtime.progress;
  return (
    <div className="live-activity">
      {runtime.busy && runtime.phase === 'calling' && <p className="small"><JobWaitNotice wait={runtime.wait} /></p>}
      {progress && (
        <div role="status" className="live-progress" data-testid="live.progress">
          Compacting the history ({progress.phase}
          {progress.phase === 'summarizing' ? `, summary ${Math.min(progress.done + 1, progress.total)} of ${progress.total}` : ''})…
          <progress max={progress.total || 1} value={progress.done} aria-label="Compaction progress" />
        </div>
      )}
      {runtime.tools.length > 0 && (
        <ul className="small live-tools" data-testid="live.tools" aria-label="Tool calls of this turn">
          {runtime.tools.map((tool) => (
            <li key={tool.id} data-testid="live.tool" className={tool.ok === false ? 'error' : ''}>
              <code>{tool.name}</code> {inputText(tool.input)}{' '}
              {tool.ok === undefined ? <span className="muted">running…</span> : tool.ok ? <span className="muted">ok</span> : <span>refused: {tool.error}</span>}
            </li>
          ))}
        </ul>
      )}
      {runtime.thinking && <p className="muted small live-text">{runtime.thinking}</p>}
      {runtime.streaming && (
        <p className="live-text live-streaming" aria-live="off" data-testid="live.streaming">{runtime.streaming}</p>
      )}
      {runtime.lastCompaction && <p className="small" data-testid="live.compaction">Last compaction: {runtime.lastCompaction}</p>}
      {runtime.notes.length > 0 && (
        <ul className="small live-notes" data-testid="live.notes" aria-label="Notes of the session">
          {runtime.notes.map((note, i) => (
            <li key={i} data-testid="live.note">{note}</li>
          ))}
        </ul>
      )}
      {runtime.unfinished && (
        <p className="live-text live-unfinished" data-testid="live.unfinished">
          {runtime.unfinished}
          <span className="small muted"> [not complete]</span>
        </p>
      )}
      {runtime.lastStatus === 'stopped' && (
        <p className="small warn" data-testid="live.stopped">
          {runtime.unfinished ? 'Stopped: the reply above is not complete and was not kept in the session.' : 'Stopped: the unfinished reply was not kept.'}
        </p>
      )}
      {runtime.error && <p className="error" role="alert" data-testid="live.error">{runtime.error}</p>}
    </div>
  );
}
