/**
 * The settings every configuration shares (counter and window from the gauge, a price model, the
 * summarizer from Settings), the Run button, and the running compare's progress with Cancel.
 */
import { DEFAULT_REPLAY_FROM, validEstimate } from '../../store/view/replay-settings.ts';
import { StartChoice } from '../common/StartChoice.tsx';
import { PRICES, PRICES_AS_OF, priceFor } from '../../store/view/prices.ts';
import { COUNTER_LABELS } from '../../store/view/vocabulary.ts';
import type { ConversationRow } from '../../db/schema.ts';
import { cancelCompare, runCompare } from '../../store/compare-actions.ts';
import type { CompareRunState } from '../../store/compare-slice.ts';
import { useAppStore } from '../../store/store.ts';
import { modelLabel } from '../../store/summarizer-request.ts';
import { UnseenPrefixField } from '../common/UnseenPrefixField.tsx';
import { ProgressBar } from '../common/ProgressBar.tsx';
import { checkConfig, requestConfigs, uniqueLabels } from './configs.ts';
import { defaultName, resolvePriceModel } from './model.ts';
import { formatNumber } from '../common/format.ts';

export interface RunBarProps {
  conversation: ConversationRow;
  leafId: string | undefined;
  dismissed: readonly string[];
}

export function RunBar({ conversation, leafId, dismissed }: RunBarProps) {
  const rows = useAppStore((s) => s.compareConfigs);
  const counter = useAppStore((s) => s.counter);
  const windowPreset = useAppStore((s) => s.windowPreset);
  const contextWindow = useAppStore((s) => s.windowTokens);
  const priceChoice = useAppStore((s) => s.comparePriceModel);
  const setPriceChoice = useAppStore((s) => s.setComparePriceModel);
  const run = useAppStore((s) => s.compareRun);
  const summarizerKind = useAppStore((s) => s.summarizerKind);
  const remote = useAppStore((s) => s.remote);
  const localModelId = useAppStore((s) => s.localModelId);
  const setSettingsOpen = useAppStore((s) => s.setSettingsOpen);
  const model = modelLabel({ summarizerKind, remote, localModelId });
  const presetPrice = priceFor(windowPreset);
  const invalid = rows.some((row) => checkConfig(row) !== undefined);
  const busy = run !== undefined;
  const elsewhere = run !== undefined && run.conversationId !== conversation.id;
  const from = useAppStore((s) => s.replayFrom);
  const setFrom = useAppStore((s) => s.setReplayFrom);
  const unseenEstimate = useAppStore((s) => s.unseenEstimate);
  const hookSource = useAppStore((s) => s.hookSource);

  const start = () => {
    const labels = uniqueLabels(rows);
    const priceModel = resolvePriceModel(priceChoice, windowPreset);
    void runCompare(
      {
        conversationId: conversation.id, counter, contextWindow, configs: requestConfigs(rows),
        ...(leafId ? { leafId } : {}),
        ...(from !== DEFAULT_REPLAY_FROM ? { from } : {}),
        ...(priceModel ? { priceModel } : {}),
        ...(dismissed.length > 0 ? { dismissedProbes: [...dismissed] } : {}),
        ...(validEstimate(unseenEstimate) ? { unseenPrefix: unseenEstimate } : {}),
        ...(rows.some((row) => row.hooks) && hookSource.trim() ? { hookSource } : {}),
      },
      { importId: conversation.importId, name: defaultName(labels, contextWindow, COUNTER_LABELS[counter]), labels },
    );
  };

  return (
    <div className="compare-runbar">
      <p className="small" data-testid="compare.shared">
        Counter <strong data-testid="compare.counter">{COUNTER_LABELS[counter]}</strong> · window{' '}
        <strong data-testid="compare.window" data-value={contextWindow}>{formatNumber(contextWindow)}</strong> tokens{' '}
        <span className="muted">(change them with the counter at the top and the window gauge above)</span>
      </p>
      <UnseenPrefixField />
      <div className="actions">
        <StartChoice value={from} onChange={setFrom} testId="compare.from" what="each replay" />
        <label className="field inline">
          <span>Price</span>
          <select value={priceChoice} onChange={(e) => setPriceChoice(e.target.value)} data-testid="compare.price" title={`Foldlab's price table, as of ${PRICES_AS_OF}`}>
            <option value="">{presetPrice ? `The window preset's model (${presetPrice.model})` : "The transcript's model (the window is custom)"}</option>
            <option value="recorded">The model the transcript recorded</option>
            {Object.keys(PRICES).map((id) => (
              <option key={id} value={id}>{id}</option>
            ))}
          </select>
        </label>
        <span className="muted small" data-testid="compare.summarizer">
          Summaries by {model ?? 'the offline summarizer (no model needed)'}.{' '}
          <button type="button" className="link" onClick={() => setSettingsOpen(true)} data-testid="compare.summarizer.change">Change</button>
        </span>
      </div>
      <div className="actions">
        <button type="button" className="primary" onClick={start} disabled={busy || invalid} data-testid="compare.run">
          {busy && !elsewhere ? 'Running…' : rows.length === 1 ? 'Replay' : `Compare ${rows.length} configurations`}
        </button>
        {invalid && <span className="error small">Fix the configuration marked above first.</span>}
        {elsewhere && <span className="muted small">A compare of another conversation is running.</span>}
        {dismissed.length > 0 && <span className="muted small">{dismissed.length} dismissed probe{dismissed.length === 1 ? '' : 's'} will be left out of the scores.</span>}
      </div>
      {run && !elsewhere && <CompareProgressBar run={run} />}
    </div>
  );
}

function CompareProgressBar({ run }: { run: CompareRunState }) {
  const p = run.progress;
  const configs = p?.configs ?? run.labels.length;
  const label = p ? run.labels[p.config] ?? `configuration ${p.config + 1}` : run.labels[0] ?? '';
  // Overall fraction: whole configurations done plus the share of calls of the current one.
  const done = p ? p.config * 1000 + (p.calls > 0 ? Math.round((p.call / p.calls) * 1000) : 0) : 0;
  const detail = p
    ? `configuration ${p.config + 1} of ${configs} (${label}) · call ${formatNumber(p.call)} of ${formatNumber(p.calls)} · ${p.compactions} compaction${p.compactions === 1 ? '' : 's'} so far${p.phase === 'summarizing' ? ' · summarizing' : ''}`
    : 'loading the journal and its token counts…';
  return (
    <div data-testid="compare.progress" data-config={p?.config ?? 0} data-call={p?.call ?? 0}>
      <ProgressBar
        job={{ id: run.jobId, label: configs === 1 ? 'Replaying' : `Comparing ${configs} configurations`, progress: { jobId: run.jobId, phase: p?.phase === 'summarizing' ? 'summarizing' : 'planning', done, total: configs * 1000, unit: 'entries' } }}
        detail={detail}
        onCancel={cancelCompare}
      />
    </div>
  );
}
