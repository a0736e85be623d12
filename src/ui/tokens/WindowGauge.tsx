/**
 * The context-window gauge: tokens of the shown branch against a chosen window (a model preset
 * from gpt-tokenizer's metadata, a Claude window, or a custom number). The tokens every call sends
 * beside the transcript (the unseen prefix: system prompt, tool definitions) are their own band,
 * first, with the sentence that says where the figure comes from. What it counts (GAUGE_COUNTS, its
 * tooltip) follows the page's Start choice, and never counts the agent's own compaction summaries
 * on top of the history they summarize.
 */
import { useMemo, useState } from 'react';
import { formatUsd, inputCost, priceFor, PRICES_AS_OF } from '../../store/view/prices.ts';
import { sentSentence } from '../../store/view/replay-settings.ts';
import { formatWindow, GAUGE_COUNTS, windowPresets, type GaugeContext } from '../../store/view/transcript.ts';
import { useAppStore } from '../../store/store.ts';
import { formatNumber } from '../common/format.ts';

export function WindowGauge({ context, label }: { context: GaugeContext | undefined; label: string }) {
  const transcript = context?.transcriptTokens;
  const unseenPrefix = context?.unseenPrefix;
  const prefix = unseenPrefix?.tokens ?? 0;
  const tokens = transcript === undefined ? undefined : transcript + prefix;
  const sentence = transcript !== undefined && unseenPrefix ? sentSentence(transcript, unseenPrefix) : undefined;
  const presets = useMemo(() => windowPresets(), []);
  const windowPreset = useAppStore((state) => state.windowPreset);
  const windowTokens = useAppStore((state) => state.windowTokens);
  const setWindow = useAppStore((state) => state.setWindow);
  const [customError, setCustomError] = useState<string>();
  const fraction = tokens === undefined ? 0 : tokens / windowTokens;
  const level = fraction > 1 ? 'over' : fraction > 0.8 ? 'high' : 'ok';
  const priced = priceFor(windowPreset);

  return (
    <div className="gauge" data-testid="gauge" title={GAUGE_COUNTS} {...(context ? { 'data-from': context.from, 'data-transcript': context.transcriptTokens } : {})}>
      <div className="gauge-controls">
        <label className="field inline">
          <span>Window</span>
          <select
            value={windowPreset}
            onChange={(event) => {
              const preset = presets.find((p) => p.id === event.target.value);
              if (preset) setWindow(preset.id, preset.tokens);
              else setWindow('custom', windowTokens);
            }}
            data-testid="gauge.preset"
          >
            {presets.map((preset) => (
              <option key={preset.id} value={preset.id}>
                {preset.label}
              </option>
            ))}
            <option value="custom">Custom…</option>
          </select>
        </label>
        {windowPreset === 'custom' && (
          <label className="field inline">
            <span>Tokens</span>
            <input
              type="number"
              min={1}
              step={1000}
              defaultValue={windowTokens}
              data-testid="gauge.custom"
              onChange={(event) => {
                const value = Number(event.target.value);
                if (!Number.isInteger(value) || value < 1 || value > 100_000_000) {
                  setCustomError('Enter a whole number of tokens between 1 and 100,000,000.');
                  return;
                }
                setCustomError(undefined);
                setWindow('custom', value);
              }}
            />
          </label>
        )}
      </div>
      {customError && <p className="error small">{customError}</p>}
      <div className={`gauge-bar ${level}`} role="meter" aria-valuemin={0} aria-valuemax={windowTokens} aria-valuenow={tokens ?? 0} aria-label="Context used" aria-description={GAUGE_COUNTS} {...(sentence ? { 'aria-valuetext': sentence, title: `${sentence}. ${GAUGE_COUNTS}` } : {})}>
        {prefix > 0 && (
          <div className="gauge-prefix" data-testid="gauge.prefix" data-tokens={prefix} style={{ width: `${Math.min(100, (prefix / windowTokens) * 100)}%` }} title={sentence} />
        )}
        <div className="gauge-fill" style={{ width: `${Math.max(0, Math.min(100, fraction * 100) - Math.min(100, (prefix / windowTokens) * 100))}%` }} />
      </div>
      {sentence && (
        <p className="small muted" data-testid="gauge.sent" data-source={unseenPrefix!.source}>
          <span className="gauge-key gauge-key-prefix" aria-hidden="true" /> {sentence}
        </p>
      )}
      {context && (context.from === 'last-compaction' || context.compactionsLeftOut > 0) && (
        <p className="small muted" data-testid="gauge.scope">{scopeLine(context)}</p>
      )}
      <p className="small" data-testid="gauge.text">
        {tokens === undefined ? 'counting…' : `${formatNumber(tokens)} / ${formatWindow(windowTokens)} tokens (${(fraction * 100).toFixed(1)}%) · ${label}`}
        {fraction > 1 && <strong className="error"> — over the window by {formatNumber(tokens! - windowTokens)}</strong>}
        {priced && tokens !== undefined && (
          <span className="muted" data-testid="gauge.cost" title={`Foldlab's price table, as of ${PRICES_AS_OF}`}>
            {' '}· {formatUsd(inputCost(tokens, priced.price))} as one request's input at {priced.model} prices
          </span>
        )}
      </p>
    </div>
  );
}

/** Where the gauge's count starts, when the agent recorded compactions or the count starts at one. */
function scopeLine(context: GaugeContext): string {
  const n = context.compactionsLeftOut;
  const left = n > 0 ? `${formatNumber(n)} compaction ${n === 1 ? 'entry' : 'entries'} the agent recorded not counted` : '';
  if (context.from === 'last-compaction') return `Counted from the last compaction the agent recorded (${formatNumber(context.entries)} entries)${left ? `; ${left}` : ''}.`;
  return `Counted from the first entry (${formatNumber(context.entries)} entries); ${left}, since the history they summarize is counted in full.`;
}
