/**
 * `compressEntry` remembered per entry: a replay plans whenever the trigger fires, and each plan
 * and its assembly compress the same older tool results of the kept turns again. The compressed
 * entry depends only on the entry, the calls its results answer and the limits, so it is made
 * once per entry and handed back as the same object while those stay the same.
 */
import type { Entry, ToolCallBlock } from '../../journal/entry.ts';
import { compressEntry, type CompressionLimits } from './tool-compression.ts';

type Compressed = ReturnType<typeof compressEntry>;

interface Made {
  limits: string;
  calls: Array<ToolCallBlock | undefined>;
  result: Compressed;
}

const made = new WeakMap<Entry, Made>();

function limitsKey(limits: CompressionLimits): string {
  return `${limits.readMaxLines},${limits.grepMaxLines},${limits.listMaxItems},${limits.snippetMaxLines},${limits.stderrTailLines}`;
}

/** `compressEntry(entry, calls, limits)`; the result is shared: read it, never change it. */
export function compressedEntry(entry: Entry, calls: ReadonlyMap<string, ToolCallBlock>, limits: CompressionLimits): Compressed {
  const answered: Array<ToolCallBlock | undefined> = [];
  for (const block of entry.blocks) if (block.type === 'tool_result') answered.push(calls.get(block.callId));
  if (answered.length === 0) return undefined;
  const key = limitsKey(limits);
  const known = made.get(entry);
  if (known && known.limits === key && known.calls.length === answered.length && known.calls.every((call, k) => call === answered[k])) return known.result;
  const result = compressEntry(entry, calls, limits);
  made.set(entry, { limits: key, calls: answered, result });
  return result;
}
