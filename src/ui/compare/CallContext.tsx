/**
 * The context a configuration's model would have been sent at one call: the last compaction's
 * context followed by the entries recorded since, each with its role, origin, first characters and
 * tokens (when this counter's counts are loaded). Pick the call on the chart or type its number.
 */
import type { Entry } from '../../core/journal/entry.ts';
import { comparisonCallContext } from '../../store/compare-reads.ts';
import { callAt, compactionBefore } from '../../store/view/comparison.ts';
import { preview } from '../../store/view/entry-ref.ts';
import type { ReplayResultView } from '../../worker/compare/compare-view.ts';
import { VirtualList } from '../common/VirtualList.tsx';
import { colorOf, CONTEXT_LIST_HEIGHT, entryOfRef } from './model.ts';
import { useWorkerValue } from './use-comparison.ts';
import { formatNumber } from '../common/format.ts';

export interface CallContextProps {
  /** The saved comparison: the worker rebuilds the call's context from it. */
  comparisonId: string;
  results: readonly ReplayResultView[];
  byId: ReadonlyMap<string, Entry>;
  /** Tokens of a journal entry with the result's counter, when known. */
  tokensOf: (entry: Entry) => number | undefined;
  config: number;
  call: number;
  onChange: (config: number, call: number) => void;
}

export function CallContext({ comparisonId, results, byId, tokensOf, config, call, onChange }: CallContextProps) {
  const result = results[config];
  const context = useWorkerValue(`${comparisonId}|${config}|${call}`, () => comparisonCallContext(comparisonId, config, call));
  const refs = context.value ?? [];
  if (!result) return null;
  const info = callAt(result.calls, call);
  const last = compactionBefore(result, call);
  const calls = result.calls.length;

  return (
    <section className="call-context" data-testid="compare.call" aria-label="Context of one call" aria-busy={context.loading}>
      <div className="actions">
        <label className="field inline">
          <span>Configuration</span>
          <select value={config} onChange={(e) => onChange(Number(e.target.value), Math.min(call, Math.max(0, (results[Number(e.target.value)]?.calls.length ?? 1) - 1)))} data-testid="compare.call.config">
            {results.map((r, i) => <option key={i} value={i}>{r.label}</option>)}
          </select>
        </label>
        <label className="field inline">
          <span>Call</span>
          <input
            type="number"
            min={1}
            max={Math.max(1, calls)}
            value={call + 1}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isInteger(n) && n >= 1 && n <= calls) onChange(config, n - 1);
            }}
            data-testid="compare.call.input"
            aria-describedby="compare-call-help"
          />
          <span id="compare-call-help" className="muted small">of {formatNumber(calls)}</span>
        </label>
      </div>
      {!info ? (
        <p className="muted">This configuration has no call {call + 1}{result.error ? ' (it stopped early)' : ''}.</p>
      ) : (
        <>
          <p className="small" data-testid="compare.call.summary" style={{ borderLeft: `3px solid ${colorOf(config)}`, paddingLeft: 6 }}>
            Call {call + 1}: <strong data-testid="compare.call.tokens">{formatNumber(info.contextTokens)}</strong> tokens in {context.loading ? '… (loading)' : formatNumber(refs.length)} entries
            {info.cachedTokens > 0 && ` (${formatNumber(info.cachedTokens)} cacheable)`}
            {info.compacted && ' · compacted just before this call'}
            {info.overflow && <strong className="error"> · over the window: the real agent would have failed here</strong>}
            {last ? ` · built on compaction ${last.index + 1} (before call ${last.compaction.call + 1})` : ' · no compaction yet'}
            {info.note && <span className="muted"> · {info.note}</span>}
          </p>
          <VirtualList
            count={refs.length}
            estimate={() => 64}
            label={`Context of call ${call + 1}, ${refs.length} entries`}
            testId="compare.call.context"
            height={CONTEXT_LIST_HEIGHT}
            render={(i) => {
              const ref = refs[i];
              if (!ref) return null;
              const entry = entryOfRef(ref, byId);
              const tokens = entry && ref.origin === 'journal' ? tokensOf(entry) : undefined;
              return (
                <div className={`ctx-item origin-${ref.origin}`} data-testid="compare.call.entry" data-origin={ref.origin}>
                  <span className={`role role-${entry?.role ?? 'system'}`}>{entry?.role ?? '?'}</span>
                  <span className="badge">{ref.origin}</span>
                  {ref.origin !== 'journal' && ref.replaces && <span className="badge summary">replaces {ref.replaces.count}</span>}
                  {tokens !== undefined && <span className="badge tokens">{formatNumber(tokens)}</span>}
                  <span className="ctx-text">{entry ? preview(entry) : `${ref.origin === 'journal' ? ref.entryId : ''} (not in the journal any more)`}</span>
                </div>
              );
            }}
          />
        </>
      )}
    </section>
  );
}
