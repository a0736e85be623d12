/**
 * A compaction's effect on the context in words, for the plan view and the CLI: a share saved when
 * it shrinks, and plainly "grows" when the plan would make the context larger (a summary budget
 * above what it replaces), never a negative saving.
 */

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export function describeChange(before: number, after: number): string {
  if (after > before) return `grows by ${fmt(after - before)} tokens (+${before > 0 ? Math.max(1, Math.round(((after - before) / before) * 100)) : 100}%)`;
  if (after === before) return 'no change';
  return `${before > 0 ? Math.round(((before - after) / before) * 100) : 0}% saved (${fmt(before - after)} fewer tokens)`;
}
