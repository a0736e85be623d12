/**
 * Printing and timing helpers shared by the benchmark sections: aligned tables, number formats,
 * medians, and a garbage collector handle so each section starts from a clean heap.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type Cell = string | number;

/** Prints a table: a header row, a rule, then rows; numbers right-aligned, text left-aligned. */
export function printTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): void {
  const text = rows.map((row) => headers.map((_, i) => cellText(row[i] ?? '')));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((row) => row[i]!.length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || /^[-+]?[\d,.]+( ?[a-zµ%x×/]+)?$/i.test(String(row[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    '  ' + cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(line(headers));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of text) console.log(line(row));
}

/** Prints `key  value` pairs as a two-column table. */
export function printPairs(pairs: ReadonlyArray<readonly [string, Cell]>): void {
  const width = Math.max(...pairs.map(([k]) => k.length));
  for (const [k, v] of pairs) console.log(`  ${k.padEnd(width)}  ${cellText(v)}`);
}

function cellText(value: Cell): string {
  return typeof value === 'number' ? fmt(value) : value;
}

/** Grouped digits; fractions only for small numbers (3 significant digits). */
export function fmt(n: number, digits?: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (digits !== undefined) return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const abs = Math.abs(n);
  const fraction = abs === 0 || Number.isInteger(n) || abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { minimumFractionDigits: fraction, maximumFractionDigits: fraction });
}

/** Megabytes (10^6 bytes) with one decimal. */
export function mb(bytes: number): string {
  return `${fmt(bytes / 1e6, 1)} MB`;
}

/** A duration in the unit that reads best: µs below 1 ms, ms below 10 s, else s. */
export function duration(ms: number): string {
  if (ms < 1) return `${fmt(ms * 1000)} µs`;
  if (ms < 10_000) return `${fmt(ms)} ms`;
  return `${fmt(ms / 1000, 1)} s`;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn` and returns its result with the elapsed wall time in ms. */
export function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

export async function timedAsync<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

let gcFn: (() => void) | undefined;

/**
 * Full garbage collection, so a section's memory figures do not carry the previous section's
 * garbage. Node exposes `gc` only with --expose-gc; setting the flag at run time and reading `gc`
 * from a fresh context is the documented V8 way around it.
 */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
