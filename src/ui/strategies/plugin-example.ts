/** The example plugin the custom strategy starts with: keep the newest 20 entries, summarize the rest. */
export const EXAMPLE_PLUGIN = `// A custom strategy: it runs in its own worker and sees only plain data.
// entries: [{ index, id, role, kind, text, tokens, pinned, calls: [{ callId, name, resultIndex }],
//             result: { callId, callIndex, isError } | null }], oldest first.
// Return { keep: [indices], summarize: [[from, to], ...] }; everything else is dropped.
export default function plan(entries, options) {
  const n = entries.length;
  let start = Math.max(0, n - (options.keepLast ?? 20));
  // Keep every kept result's call: move the start back to the earliest such call.
  for (let i = start; i < n; i++) {
    const result = entries[i].result;
    if (result && result.callIndex !== null && result.callIndex < start) start = result.callIndex;
  }
  const keep = entries.filter((e, i) => i >= start || e.role === 'system' || e.pinned).map((e) => e.index);
  const kept = new Set(keep);
  const summarize = [];
  let from = -1;
  for (let i = 0; i <= n; i++) {
    const isKept = i === n || kept.has(i);
    if (!isKept && from < 0) from = i;
    if (isKept && from >= 0) { summarize.push([from, i - 1]); from = -1; }
  }
  return { keep, summarize };
}
`;
