/**
 * A saved comparison as the page reads it, from the same core functions the worker and the CLI
 * use: one call of a configuration's call columns (and its context tokens), the compaction a call
 * builds on, when a compaction ran and why (the trigger as `cli eval` prints it), and the JSON and
 * CSV exports of a stored comparison.
 */
import { PROBE_CATEGORIES } from '../../core/probes/types.ts';
import { retention } from '../../core/replay/retention.ts';
import type { ComparisonRow } from '../../db/schema.ts';

export { callAt, contextTokensAt, type CallSeries, type CallView } from '../../core/replay/call-series.ts';
export { compactionBefore } from '../../core/replay/call-context.ts';
export { compactionMoment } from '../../core/replay/compaction-moment.ts';
export { triggerText } from '../../core/replay/trigger-point.ts';

/** The comparison as JSON: the request (already without secrets) and the result. */
export function comparisonJson(row: ComparisonRow): string {
  return JSON.stringify({ name: row.name, createdAt: new Date(row.createdAt).toISOString(), request: row.request, result: row.result }, null, 2);
}

const CSV_HEADER = [
  'label', 'strategy', 'options', 'calls', 'compactions', 'peak_tokens', 'overflow_calls', 'context_tokens', 'tokens_per_task',
  'summarizer_in', 'summarizer_out', 'cost_usd', 'cost_model',
  ...PROBE_CATEGORIES.flatMap((category) => [`${category}_kept`, `${category}_total`]),
  'probes_kept', 'probes_total', 'error',
];

/** One row per configuration with its totals and scores. */
export function comparisonCsv(row: ComparisonRow): string {
  const lines = [CSV_HEADER.join(',')];
  for (const result of row.result.results) {
    const t = result.totals;
    const { byCategory, all } = retention(result.probes);
    lines.push([
      result.label, result.config.strategy, JSON.stringify(result.config.options), t.calls, t.compactions, t.peakTokens, t.overflowCalls, t.contextTokens, t.tokensPerTask,
      t.summarizerTokens.input, t.summarizerTokens.output, t.cost === null ? '' : t.cost.toFixed(6), t.costModel ?? '',
      ...PROBE_CATEGORIES.flatMap((category) => [byCategory[category].kept, byCategory[category].total]),
      all.kept, all.total, result.error ?? '',
    ].map(csvCell).join(','));
  }
  return `${lines.join('\n')}\n`;
}

function csvCell(value: string | number): string {
  const text = String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet: quote it as text.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
