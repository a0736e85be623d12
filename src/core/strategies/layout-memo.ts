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
    if (hit && hit.options === options) return hit.layout;
    const layout = compute(input, options);
    memo.set(input, { options, layout });
    return layout;
  };
}
