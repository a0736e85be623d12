/**
 * The summary node (seed 000 §5.1, §5.2, A7): a user message made from the supervisor template with
 * the abridged history and the summary, then the fixed assistant reply carrying the tool calls of
 * the summarized head whose results stay in the context, so every kept result still has its call.
 * Both are new entries; journal entries are only ever referenced.
 */
import type { Entry, ToolCallBlock } from '../../journal/entry.ts';
import type { ContextEntry, Fate } from '../../compaction/types.ts';
import { branchIndex } from './branch-index.ts';

/**
 * Fills `{summary}` and `{abridged_history}` in one pass (Augment replaces one after the other, so a
 * summary that happens to contain "{abridged_history}" would be filled in too); other braces stay.
 */
export function fillSupervisor(template: string, vars: { summary: string; abridged_history: string }): string {
  return template.replace(/\{(summary|abridged_history)\}/g, (_match, name: 'summary' | 'abridged_history') => vars[name]);
}

/** The model is asked to wrap its summary in <summary> tags; the template already has them. */
export function stripSummaryTags(text: string): string {
  const trimmed = text.trim();
  const match = /^<summary>\s*([\s\S]*?)\s*<\/summary>$/.exec(trimmed);
  return match ? match[1]! : trimmed;
}

/**
 * Tool calls the context needs but does not keep: for each kept entry's tool result, its call when
 * that call sits in an entry that is not kept. Results whose call was never in the input stay
 * orphans as they were.
 */
export function carriedCalls(entries: readonly Entry[], fates: readonly Fate[]): ToolCallBlock[] {
  const out: ToolCallBlock[] = [];
  const seen = new Set<string>();
  // Results paired with their calls as the branch was indexed: no walk over every block.
  const pairs = branchIndex(entries).resultCalls;
  for (let k = 0; k < pairs.length; k++) {
    const { result, call, block } = pairs[k]!;
    if (fates[result] === 'keep' && fates[call] !== 'keep' && !seen.has(block.callId)) {
      seen.add(block.callId);
      out.push(structuredClone(block));
    }
  }
  return out;
}

export interface NodeSpec {
  /** Stable id part: the version and the first entry after the node. */
  id: string;
  nodeText: string;
  ackText: string;
  carried: ToolCallBlock[];
  now: number;
  /** Journal entries the node stands for (first, last, how many). */
  replaces: { fromId: string; toId: string; count: number } | undefined;
}

/** The node and its reply as context entries (user summary, assistant reply with the carried calls). */
export function nodeEntries(spec: NodeSpec, parentId: string | null): ContextEntry[] {
  const node: Entry = {
    id: `${spec.id}-request`, index: -1, parentId, role: 'user', kind: 'message',
    blocks: [{ type: 'text', text: spec.nodeText }], timestamp: spec.now, sourceType: 'augment.summary-node', line: 0,
  };
  const ack: Entry = {
    id: `${spec.id}-response`, index: -1, parentId: node.id, role: 'assistant', kind: 'message',
    blocks: [{ type: 'text', text: spec.ackText }, ...spec.carried], timestamp: spec.now, sourceType: 'augment.summary-node', line: 0,
  };
  return [
    { role: 'user', entry: node, origin: 'summary', ...(spec.replaces ? { replaces: spec.replaces } : {}) },
    { role: 'assistant', entry: ack, origin: 'synthetic' },
  ];
}

/**
 * The context: kept entries before `cut` (system prompts, pinned exchanges), the node when there
 * is one, then the kept entries from `cut` on, all in journal order.
 */
export function buildContext(entries: readonly Entry[], kept: (index: number) => boolean, cut: number, node: NodeSpec | undefined): ContextEntry[] {
  const out: ContextEntry[] = [];
  const journal = (entry: Entry): ContextEntry => ({ role: entry.role, entry, origin: 'journal' });
  for (let i = 0; i < Math.min(cut, entries.length); i++) if (kept(i)) out.push(journal(entries[i]!));
  if (node) out.push(...nodeEntries(node, out[out.length - 1]?.entry.id ?? null));
  for (let i = cut; i < entries.length; i++) if (kept(i)) out.push(journal(entries[i]!));
  return out;
}

/** First and last ids and the number of the entries before `cut` whose fate is not keep. */
export function replacedRange(entries: readonly Entry[], fates: readonly Fate[], cut: number): NodeSpec['replaces'] {
  const end = Math.min(cut, entries.length);
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = 0; i < end; i++) {
    if (fates[i] === 'keep') continue;
    if (first < 0) first = i;
    last = i;
    count++;
  }
  return first >= 0 ? { fromId: entries[first]!.id, toId: entries[last]!.id, count } : undefined;
}
