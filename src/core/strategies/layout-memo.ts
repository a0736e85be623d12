/**
 * A strategy's layout of one input (what leaves the window, what is masked, what a summary covers)
 * is needed by its plan and again by its assembly, which `runCompaction` hands the same input and
 * options objects: computed once for both. Inputs are immutable, so the memo cannot go stale.
 */
import type { CompactionInput } from '../compaction/types.ts';

export function layoutOnce<O extends object, L>(compute: (input: CompactionInput, options: O) => L): (input: CompactionInput, options: O) => L {
  const memo = new WeakMap<CompactionInput, { options: O; layout: L }>();
  return (input, options) => {
    const hit = memo.get(input);
    // The replay asks the trigger and then plans with the same input, options parsed twice: equal values are the same options.
    if (hit && (hit.options === options || sameValues(hit.options, options))) return hit.layout;
    const layout = compute(input, options);
    memo.set(input, { options, layout });
    return layout;
  };
}

/** Two options records with the same keys and the same primitive values. */
function sameValues(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) {
    const v = x[key];
    if (typeof v === 'object' && v !== null) return false;
    if (!Object.is(v, y[key])) return false;
  }
  return true;
}
