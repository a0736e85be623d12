/**
 * A sweep as a table, one row per point: the varied options, the figures, each probe category's
 * kept / total, whether the point is on the front and which is recommended. The CSV export (page
 * and `cli sweep --csv`) and the CLI's text and Markdown tables all read these rows, so they agree.
 */
import { PROBE_CATEGORIES } from '../probes/types.ts';
import { variedNames } from './recommend.ts';
import type { SweepResult } from './types.ts';

export interface SweepTable {
  header: string[];
  rows: string[][];
}

/** The table of a sweep (see the module comment); numbers as plain digits, ratios and retention to 4 decimals. */
export function sweepTable(result: SweepResult): SweepTable {
  const names = variedNames(result.points);
  const front = new Set(result.pareto);
  const header = ['point', ...names, 'tokens per task', 'ratio to uncompacted', 'retention', 'overflow calls', 'compactions', ...PROBE_CATEGORIES, 'front', 'recommended', 'errors'];
  const rows = result.points.map((point, i) => [
    String(i),
    ...names.map((name) => String(point.options[name])),
    String(point.tokensPerTask),
    point.ratioToUncompacted.toFixed(4),
    point.retention.toFixed(4),
    String(point.overflowCalls),
    String(point.compactions),
    ...PROBE_CATEGORIES.map((category) => `${point.probes[category].kept}/${point.probes[category].total}`),
    front.has(i) ? 'yes' : '',
    i === result.recommended ? 'yes' : '',
    (point.errors ?? []).join('; '),
  ]);
  return { header, rows };
}

/** The sweep as CSV, one row per point (cells that would run as a spreadsheet formula are quoted as text). */
export function sweepCsv(result: SweepResult): string {
  const { header, rows } = sweepTable(result);
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n')}\n`;
}

function csvCell(text: string): string {
  const safe = /^[=+@]/.test(text) || /^-[^\d]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
