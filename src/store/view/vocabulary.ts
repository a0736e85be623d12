/**
 * The names the page shows for what the core knows: token counters, transcript formats and probe
 * categories. The page takes them from here (ui imports store only); the core and the CLI read the
 * same tables, so a label never differs between the page and the terminal.
 */
export { COUNTER_IDS, COUNTER_LABELS, isExactCounterId, type CounterId } from '../../core/tokens/counters.ts';
export { FORMAT_IDS, FORMAT_LABELS, type FormatId } from '../../core/import/types.ts';
export { PROBE_CATEGORIES, type ProbeCategory } from '../../core/probes/types.ts';
