/**
 * Pick a strategy, set its options, see the plan (previewed in the worker as you type), press
 * Compact. The run is stored and opened; a failure or a cancel leaves everything as it was.
 */
import { useEffect, useMemo, useState } from 'react';
import type { StrategyId } from '../../core/compaction/types.ts';
import type { ConversationRow } from '../../db/schema.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { errorMessage, planCompaction, runCompactionJob } from '../../store/actions.ts';
import { summarizerFields, summarizerKindOf } from '../../store/summarizer-request.ts';
import { useAppStore } from '../../store/store.ts';
import type { CompactRequest, PlanPreview } from '../../worker/engine/protocol.ts';
import { DEFAULT_REPLAY_FROM, validEstimate } from '../../store/view/replay-settings.ts';
import { getStrategy, optionProblem, STRATEGY_IDS } from '../../store/view/strategies.ts';
import { COUNTER_LABELS } from '../../store/view/vocabulary.ts';
import { StartChoice } from '../common/StartChoice.tsx';
import { OptionsForm } from './OptionsForm.tsx';
import { EXAMPLE_PLUGIN } from './plugin-example.ts';
import { PlanView } from './PlanView.tsx';
import { UnseenPrefixField } from '../common/UnseenPrefixField.tsx';
import { HooksEditor } from './HooksEditor.tsx';
import { RestoredCodeNotice } from './RestoredCodeNotice.tsx';

const EMPTY: Record<string, string> = {};

export function CompactPanel({ conversation, leafId, entryCount, entries }: { conversation: ConversationRow; leafId: string | undefined; entryCount: number; entries?: readonly Entry[] }) {
  const byId = useMemo(() => new Map((entries ?? []).map((entry) => [entry.id, entry])), [entries]);
  const strategyId = useAppStore((s) => s.strategy);
  const setStrategy = useAppStore((s) => s.setStrategy);
  const values = useAppStore((s) => s.optionValues[strategyId] ?? EMPTY);
  const setOption = useAppStore((s) => s.setOption);
  const resetOptions = useAppStore((s) => s.resetOptions);
  const counter = useAppStore((s) => s.counter);
  const contextWindow = useAppStore((s) => s.windowTokens);
  const upTo = useAppStore((s) => s.upTo);
  const setUpTo = useAppStore((s) => s.setUpTo);
  const continuePrevious = useAppStore((s) => s.continuePrevious);
  const setContinuePrevious = useAppStore((s) => s.setContinuePrevious);
  const openRun = useAppStore((s) => s.openRun);
  const setTab = useAppStore((s) => s.setTab);
  const strategy = getStrategy(strategyId);
  const storedPlugin = useAppStore((s) => s.pluginSource);
  const setPluginSource = useAppStore((s) => s.setPluginSource);
  const pluginSource = storedPlugin ?? EXAMPLE_PLUGIN;
  // The custom strategy's `plan` option is filled by running the plugin, not typed.
  const visibleSpecs = strategyId === 'custom' ? strategy.options.filter((spec) => spec.name !== 'plan') : strategy.options;
  const summarizerKind = useAppStore((s) => s.summarizerKind);
  const remote = useAppStore((s) => s.remote);
  const localModelId = useAppStore((s) => s.localModelId);
  const setSettingsOpen = useAppStore((s) => s.setSettingsOpen);
  const hookSource = useAppStore((s) => s.hookSource);
  const unseenEstimate = useAppStore((s) => s.unseenEstimate);

  const optionError = useMemo(() => optionProblem(strategyId, values), [strategyId, values]);

  // The page's one Start choice: the gauge above counts from the same place.
  const from = useAppStore((s) => s.replayFrom);
  const setFrom = useAppStore((s) => s.setReplayFrom);
  const request: Omit<CompactRequest, 'jobId'> = useMemo(
    () => ({
      conversationId: conversation.id,
      strategy: strategyId,
      options: values,
      counter,
      contextWindow,
      ...(leafId ? { leafId } : {}),
      ...(upTo !== undefined ? { upTo } : {}),
      ...(from !== DEFAULT_REPLAY_FROM ? { from } : {}),
      continueFrom: continuePrevious ? 'latest' : 'none',
      // Who will write the summaries decides whether the plan's after figure is counted or an estimate (no key here).
      summarizer: summarizerKindOf({ summarizerKind, localModelId }),
      ...(strategyId === 'custom' ? { pluginSource } : {}),
      ...(validEstimate(unseenEstimate) ? { unseenPrefix: unseenEstimate } : {}),
    }),
    [conversation.id, strategyId, values, counter, contextWindow, leafId, upTo, from, continuePrevious, pluginSource, unseenEstimate, summarizerKind, localModelId],
  );

  const [preview, setPreview] = useState<{ key: string; value?: PlanPreview; error?: string }>();
  const key = JSON.stringify(request);
  useEffect(() => {
    if (optionError) return;
    let live = true;
    const timer = setTimeout(() => {
      planCompaction(request).then(
        (value) => live && setPreview({ key, value }),
        (error: unknown) => live && setPreview({ key, error: errorMessage(error) }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, request, optionError]);

  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<string>();
  const current = preview?.key === key ? preview : undefined;
  const run = async () => {
    setRunning(true);
    setRunError(undefined);
    try {
      // The key is read from memory at the moment of the run and goes only into this request.
      const row = await runCompactionJob({ ...request, ...(hookSource.trim() ? { hookSource } : {}), ...(await summarizerFields()) });
      openRun(row.id);
      setTab('runs');
    } catch (error) {
      setRunError(errorMessage(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="compact-panel" data-testid="compact">
      <div className="strategy-picker" role="radiogroup" aria-label="Strategy">
        {STRATEGY_IDS.map((id) => {
          const s = getStrategy(id);
          return (
            <label key={id} className={id === strategyId ? 'selected' : ''}>
              <input type="radio" name="strategy" value={id} checked={id === strategyId} onChange={() => setStrategy(id as StrategyId)} data-testid={`compact.strategy.${id}`} />
              <strong>{s.label}</strong>
              <span className="muted small">{s.description}</span>
            </label>
          );
        })}
      </div>
      <div className="compact-grid">
        <div>
          {strategyId === 'custom' && (
            <fieldset className="options">
              <legend>
                Plugin module{' '}
                <button type="button" className="link small" onClick={() => setPluginSource(undefined)} data-testid="compact.plugin.reset">Restore the example</button>
              </legend>
              <RestoredCodeNotice kind="plugin" />
              <textarea className="plugin-source" rows={14} spellCheck={false} value={pluginSource} onChange={(e) => setPluginSource(e.target.value)} aria-label="Plugin module (JavaScript)" data-testid="compact.plugin" />
              <span className="muted small">Runs in its own worker with only the entries' plain data, for at most 2 s; its answer is checked before use.</span>
            </fieldset>
          )}
          <OptionsForm specs={visibleSpecs} values={values} error={optionError} onChange={(name, value) => setOption(strategyId, name, value)} onReset={() => resetOptions(strategyId)} />
          <fieldset className="options">
            <legend>When</legend>
            <label className="field inline">
              <span>Compact as of entry</span>
              <input
                type="number"
                min={1}
                max={entryCount}
                value={upTo === undefined ? entryCount : upTo + 1}
                onChange={(e) => {
                  const n = Number(e.target.value);
                  setUpTo(Number.isInteger(n) && n >= 1 && n < entryCount ? n - 1 : undefined);
                }}
                data-testid="compact.upto"
              />
              <span className="muted small">of {entryCount}</span>
            </label>
            <StartChoice value={from} onChange={setFrom} testId="compact.from" what="the plan" />
            <label className="field inline">
              <input type="checkbox" checked={continuePrevious} onChange={(e) => setContinuePrevious(e.target.checked)} data-testid="compact.continue" />
              <span>Continue from this strategy's previous run (update / nest / append its summary)</span>
            </label>
          </fieldset>
          <UnseenPrefixField />
          <HooksEditor />
        </div>
        <div>
          {optionError ? (
            <p className="error" role="alert">Fix the options first: {optionError.message}</p>
          ) : current?.error ? (
            <p className="error" role="alert" data-testid="plan.error">{current.error}</p>
          ) : current?.value ? (
            <PlanView preview={current.value} counterLabel={COUNTER_LABELS[counter]} byId={(id) => byId.get(id)} />
          ) : (
            <p className="muted">Planning…</p>
          )}
          <div className="actions">
            <button type="button" className="primary" disabled={running || !!optionError || !current?.value || !!current.value.plan.nothingToDo} onClick={() => void run()} data-testid="compact.run">
              {running ? 'Compacting…' : 'Compact'}
            </button>
            <span className="muted small" data-testid="compact.summarizer">
              Summaries by {summarizerKind === 'remote' ? `${remote.presetId} · ${remote.model}` : summarizerKind === 'local' ? `the local model ${localModelId ?? '(choose one in Settings)'}` : 'the offline summarizer (no model needed)'}.{' '}
              <button type="button" className="link" onClick={() => setSettingsOpen(true)}>Change</button>
            </span>
          </div>
          {runError && (
            <p className="error" role="alert" data-testid="compact.error">
              {runError} The conversation is unchanged.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
