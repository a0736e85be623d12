/**
 * What the Compare tab derives from a saved result, apart from React: the context a call was sent,
 * the whole-replay probe score, series colours, the default price model and name, and the JSON /
 * CSV exports. Plain functions, tested in Node (model.test.ts).
 */
import type { Entry } from '../../core/journal/entry.ts';
import { entryText } from '../../core/journal/entry.ts';
import { compactionContext } from '../../core/replay/compaction-context.ts';
import { priceFor } from '../../core/pricing.ts';
import { PROBE_CATEGORIES } from '../../core/probes/types.ts';
import { retention } from '../../core/replay/retention.ts';
import type { ContextRef, ReplayCompaction, ReplayResult } from '../../core/replay/types.ts';
import type { ComparisonRow } from '../../db/schema.ts';

/** One colour per configuration (up to 8), distinguishable for the common colour-vision deficiencies. */
/** Height of the context lists (a call's context, the final contexts), in px. Default 320. */
export const CONTEXT_LIST_HEIGHT = 320;

export const SERIES_COLORS = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed', '#0891b2', '#be185d', '#4b5563'] as const;

/** A dash pattern per configuration too, so the curves differ without colour. */
export const SERIES_DASH: readonly number[][] = [[], [6, 3], [2, 2], [8, 3, 2, 3], [], [6, 3], [2, 2], [8, 3, 2, 3]];

export const colorOf = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]!;

/** The last compaction that ran at or before call `k` (the one whose context call k builds on). */
export function compactionBefore<C extends Pick<ReplayCompaction, 'call'>>(result: { compactions: readonly C[] }, k: number): { compaction: C; index: number } | undefined {
  for (let i = result.compactions.length - 1; i >= 0; i--) {
    const compaction = result.compactions[i]!;
    if (compaction.call <= k) return { compaction, index: i };
  }
  return undefined;
}

/**
 * The context the model was sent at call `k`: the last compaction's context (if any) followed by
 * the recorded entries appended since, up to (not including) the entry that answered the call.
 */
export function contextAtCall(result: ReplayResult, entryIds: readonly string[], k: number): ContextRef[] {
  const call = result.calls[k];
  if (!call) return [];
  const before = compactionBefore(result, k);
  const from = before ? before.compaction.appendFrom : 0;
  const appended = entryIds.slice(from, Math.max(from, call.entryIndex)).map((entryId): ContextRef => ({ origin: 'journal', entryId }));
  return before ? [...compactionContext(result.compactions, before.index, entryIds), ...appended] : appended;
}

export function percent(kept: number, total: number): string {
  return total === 0 ? '—' : `${Math.round((kept / total) * 100)}%`;
}

/** The price model the request names: '' follows the gauge preset (else the transcript's recorded model). */
export function resolvePriceModel(choice: string, windowPreset: string): string | undefined {
  if (choice === 'recorded') return undefined;
  if (choice !== '') return choice;
  return priceFor(windowPreset)?.model;
}

/** "pi vs sliding-window · 50,000 chars/4". */
export function defaultName(labels: readonly string[], contextWindow: number, counterLabel: string): string {
  const head = labels.length === 1 ? `Replay: ${labels[0]}` : labels.join(' vs ');
  return `${head} · ${contextWindow.toLocaleString('en-US')} ${counterLabel}`.slice(0, 200);
}

/** The first ~`chars` characters of an entry's text on one line. */
export function preview(entry: Entry, chars = 200): string {
  const text = entryText(entry).replace(/\s+/g, ' ').trim();
  return text.length > chars ? `${text.slice(0, chars)}…` : text || '(no text)';
}

/** The entry a context reference stands for, when it can be found. */
export function entryOfRef(ref: ContextRef, byId: ReadonlyMap<string, Entry>): Entry | undefined {
  return ref.origin === 'journal' ? byId.get(ref.entryId) : ref.entry;
}

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
