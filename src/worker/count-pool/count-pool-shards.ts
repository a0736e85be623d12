/**
 * How the count pool splits a journal and puts the answers back together: each entry reduced to
 * what counting reads (so less is copied to the workers), contiguous shards of about equal text,
 * and the shards' per-entry totals merged in journal order with their sums added up. Counting an
 * entry depends on that entry alone, so the merged result is the one count of the whole journal.
 */
import { blockText, type Block, type Entry } from '../../core/journal/entry.ts';
import { emptyByKind, emptyByRole, type EntriesTokens } from '../../core/tokens/entry-tokens.ts';

/** A journal ready for the pool: the reduced entries, the text each holds, and their sum. */
export interface CountWork {
  entries: Entry[];
  /** Characters of text per entry (what counting it costs, roughly), in journal order. */
  weights: number[];
  /** Sum of `weights`. */
  chars: number;
}

/** A shard: entries `start` (inclusive) to `end` (exclusive) of the journal. */
export interface ShardRange {
  start: number;
  end: number;
}

/**
 * The entries as counting sees them: role and blocks, each block carrying exactly the text
 * `blockText` renders for it (a tool call's arguments already rendered to their JSON text, a
 * thinking block without its signature), so the workers' counts equal counts of the originals.
 */
export function countWork(entries: readonly Entry[]): CountWork {
  const reduced: Entry[] = new Array<Entry>(entries.length);
  const weights: number[] = new Array<number>(entries.length);
  let chars = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    let weight = 0;
    const blocks = entry.blocks.map((block) => {
      const text = blockText(block);
      weight += text.length;
      return reduceBlock(block, text);
    });
    reduced[i] = { id: '', index: i, parentId: null, role: entry.role, kind: entry.kind, sourceType: '', line: 0, blocks };
    weights[i] = weight;
    chars += weight;
  }
  return { entries: reduced, weights, chars };
}

function reduceBlock(block: Block, text: string): Block {
  switch (block.type) {
    case 'text':
      return { type: 'text', text };
    case 'thinking':
      return { type: 'thinking', text };
    case 'tool_call':
      // blockText is `${name}(${arguments})`: a string input is rendered as it is.
      return { type: 'tool_call', callId: '', name: block.name, input: text.slice(block.name.length + 1, -1) };
    case 'tool_result':
      return { type: 'tool_result', callId: '', isError: false, content: block.content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image', mediaType: '', bytes: 0, source: 'url' })) };
    case 'image':
      return { type: 'image', mediaType: '', bytes: 0, source: 'url' };
  }
}

/**
 * Cuts `weights.length` entries into at most `parts` contiguous, non-empty shards of about equal
 * weight (an entry is never split: one very large entry makes its shard large). Every entry costs
 * at least 1, so a run of empty entries is spread too.
 */
export function planShards(weights: readonly number[], parts: number): ShardRange[] {
  const n = weights.length;
  const count = Math.max(1, Math.min(Math.floor(parts), n));
  if (n === 0) return [];
  let total = 0;
  for (const weight of weights) total += weight + 1;
  const ranges: ShardRange[] = [];
  let start = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += weights[i]! + 1;
    const shardsLeft = count - ranges.length - 1;
    // Cut once this shard reaches its share, keeping at least one entry for every shard still to come.
    if (shardsLeft > 0 && sum >= (total * (ranges.length + 1)) / count && n - (i + 1) >= shardsLeft) {
      ranges.push({ start, end: i + 1 });
      start = i + 1;
    }
  }
  ranges.push({ start, end: n });
  return ranges;
}

/** The shards' results (in the order of `ranges`) as one count of `length` entries. */
export function mergeShards(ranges: readonly ShardRange[], results: readonly EntriesTokens[], length: number): EntriesTokens {
  const totals = new Uint32Array(length);
  const byKind = emptyByKind();
  const byRole = emptyByRole();
  ranges.forEach((range, i) => {
    const result = results[i];
    if (result === undefined || result.totals.length !== range.end - range.start) {
      throw new Error(`Shard ${i} (entries ${range.start}-${range.end - 1}) came back with ${result?.totals.length ?? 'no'} totals; expected ${range.end - range.start}.`);
    }
    totals.set(result.totals, range.start);
    for (const key of Object.keys(byKind) as Array<keyof typeof byKind>) byKind[key] += result.byKind[key];
    for (const key of Object.keys(byRole) as Array<keyof typeof byRole>) byRole[key] += result.byRole[key];
  });
  return { totals, byKind, byRole };
}
