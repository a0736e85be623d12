/**
 * Where a replay configuration's trigger fires, as a context size in the replay's counter, so it can
 * be shown against the window (the Compare totals, `cli eval`). Each strategy states its threshold in
 * its own terms (pi: window minus `reserveTokens`; tool-result-clearing: `triggerTokens`; augment:
 * `triggerOnHistorySizeChars`, characters unless `sizeUnit=tokens`); this reads the configuration's
 * parsed options and turns the threshold into tokens. Strategies that act on a count of turns or
 * iterations, not on the context's size, have no such point and say what they act on.
 */
import { withUserWindow } from '../compaction/window-option.ts';
import type { OptionSpec } from '../compaction/options.ts';
import { getStrategy } from '../strategies/index.ts';
import { codexLimits, type CodexOptions } from '../strategies/codex.ts';
import { claudeCodeThreshold, type ClaudeCodeOptions } from '../strategies/claude-code.ts';
import { opencodeLimits, type OpencodeOptions } from '../strategies/opencode.ts';
import { FOLDING_CONFIG_ID, foldReplayOptions } from './config-options.ts';
import type { Entry } from '../journal/entry.ts';
import { getEstimator } from '../tokens/counters.ts';
import { countEntry } from '../tokens/entry-tokens.ts';
import type { ReplayConfig, TriggerPoint } from './types.ts';

export type { TriggerPoint } from './types.ts';

/** Options of the count-based strategies that say how often they act. */
const COUNT_OPTIONS: Readonly<Record<string, string>> = {
  'sliding-window': 'windowSize',
  checkpoints: 'checkpointInterval',
  'two-layer': 'recentSize',
  'query-on-demand': 'recentSize',
  'observation-masking': 'keepTurns',
};

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

const CHARS = getEstimator('chars');

/** Characters per counted token over `entries` (1 when nothing was counted), to read a threshold in characters as tokens. */
export function charsPerToken(entries: readonly Entry[], tokens: number): number {
  if (tokens <= 0) return 1;
  let chars = 0;
  for (const entry of entries) chars += countEntry(entry, CHARS).total;
  return chars > 0 ? chars / tokens : 1;
}

/** A configuration's options as its replay parses them: the user's window where the strategy has a window option of its own. */
export function replayOptions(config: Pick<ReplayConfig, 'strategy' | 'options'>, contextWindow: number): Record<string, unknown> {
  if (config.strategy === FOLDING_CONFIG_ID) return foldReplayOptions(config.options, contextWindow) as unknown as Record<string, unknown>;
  const strategy = getStrategy(config.strategy);
  return strategy.parse(withUserWindow(strategy, config.options, contextWindow)) as Record<string, unknown>;
}

/**
 * The trigger point of `config` over a replay with `contextWindow` tokens. `charsPerToken` is the
 * branch's characters per counted token, used to read a threshold set in characters (augment's
 * default unit) as tokens; the rule says that figure is an estimate.
 */
export function triggerPoint(config: Pick<ReplayConfig, 'strategy' | 'options'>, contextWindow: number, charsPerToken: number): TriggerPoint {
  const o = replayOptions(config, contextWindow);
  const num = (name: string) => Number(o[name]);
  switch (config.strategy) {
    case FOLDING_CONFIG_ID:
      return { tokens: Math.round(num('pressureRatio') * num('contextWindow')), rule: `pressureRatio ${num('pressureRatio')} × contextWindow ${fmt(num('contextWindow'))} (and periodic folds every few iterations)` };
    case 'pi': {
      if (o.enabled === false) return { tokens: null, rule: 'enabled = false: pi never compacts on its own' };
      return { tokens: contextWindow - num('reserveTokens'), rule: `contextWindow ${fmt(contextWindow)} - reserveTokens ${fmt(num('reserveTokens'))}` };
    }
    case 'augment': {
      if (o.enabled === false || o.prompt === '') return { tokens: null, rule: 'summarization disabled (enabled = false or an empty prompt)' };
      const name = num('triggerOnHistorySizeChars') > 0 ? 'triggerOnHistorySizeChars' : 'triggerOnHistorySizeCharsWhenCacheExpiring';
      const threshold = num(name);
      if (threshold <= 0) return { tokens: null, rule: 'both thresholds are 0: augment never summarizes' };
      if (o.sizeUnit === 'tokens') return { tokens: threshold, rule: `${name} ${fmt(threshold)} (sizeUnit tokens)` };
      const tokens = Math.round(threshold / charsPerToken);
      return { tokens, rule: `${name} ${fmt(threshold)} chars ≈ ${fmt(tokens)} tokens at this branch's ${charsPerToken.toFixed(1)} chars per token` };
    }
    case 'layered':
      return { tokens: Math.round(num('triggerRatio') * num('contextWindow')), rule: `triggerRatio ${num('triggerRatio')} × contextWindow ${fmt(num('contextWindow'))} (last recorded usage + new input / 3)` };
    case 'budget':
      return { tokens: contextWindow - num('reservedOutputTokens'), rule: `contextWindow ${fmt(contextWindow)} - reservedOutputTokens ${fmt(num('reservedOutputTokens'))}` };
    case 'tool-result-clearing':
      return { tokens: num('triggerTokens'), rule: `triggerTokens ${fmt(num('triggerTokens'))}` };
    case 'codex': {
      const { window, limit, derived } = codexLimits(o as unknown as CodexOptions, contextWindow);
      return { tokens: limit, rule: derived ? `90% of model_context_window ${fmt(window)}` : `model_auto_compact_token_limit ${fmt(limit)}` };
    }
    case 'claude-code': {
      if (o.autoCompact === false) return { tokens: null, rule: 'autoCompact = false: Claude Code compacts only on /compact' };
      const t = claudeCodeThreshold(o as unknown as ClaudeCodeOptions, contextWindow);
      return { tokens: t.threshold, rule: t.rule };
    }
    case 'opencode': {
      if (o.auto === false) return { tokens: null, rule: 'compaction.auto = false: opencode compacts only on /compact (pruning aside)' };
      const l = opencodeLimits(o as unknown as OpencodeOptions, contextWindow);
      return { tokens: l.usable, rule: `window ${fmt(l.window)} - maxOutputTokens ${fmt(num('maxOutputTokens'))} - reserved ${fmt(l.reserved)}${o.prune === false ? '' : ' (and old tool outputs pruned as turns start)'}` };
    }
    case 'masking-then-summary':
      return { tokens: Math.round(num('summaryTriggerRatio') * contextWindow), rule: `summaryTriggerRatio ${num('summaryTriggerRatio')} × contextWindow ${fmt(contextWindow)} after masking (and every summaryEveryTurns ${num('summaryEveryTurns')} turns)` };
    default: {
      const name = COUNT_OPTIONS[config.strategy];
      const spec: OptionSpec | undefined = name ? getStrategy(config.strategy).options.find((s) => s.name === name) : undefined;
      return { tokens: null, rule: spec ? `acts on a count, not on the context's size: ${name} ${fmt(num(name!))}${spec.unit ? ` ${spec.unit}` : ''}` : 'acts on a count, not on the context\'s size' };
    }
  }
}

/** A trigger point against the window, as the page and the CLI print it: "100,000 tokens = 200% of the window (triggerTokens 100,000)". */
export function triggerText(trigger: TriggerPoint, contextWindow: number): string {
  if (trigger.tokens === null) return trigger.rule;
  return `${fmt(trigger.tokens)} tokens = ${Math.round((trigger.tokens / contextWindow) * 100)}% of the window (${trigger.rule})`;
}
