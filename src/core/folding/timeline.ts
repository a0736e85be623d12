/** The compact arrays the fold timeline draws from a run: levels, blocks with nesting depth, key moments, recalls, zones. */
import type { RecallTrigger, TimelineBlock, TimelineData, TimelineRetrieval } from './timeline-data.ts';
import type { FoldedBlock, FoldRun, FoldTrigger, Retrieval } from './types.ts';

const RECALL_TRIGGERS: ReadonlySet<FoldTrigger> = new Set<RecallTrigger>(['recall-explicit', 'recall-implicit', 'recall-error']);
const isRecall = (trigger: FoldTrigger): trigger is RecallTrigger => RECALL_TRIGGERS.has(trigger);

function flatten(blocks: readonly FoldedBlock[], depth: number, out: TimelineBlock[]): TimelineBlock[] {
  for (const block of blocks) {
    out.push({ id: block.id, level: block.level, from: block.from, to: block.to, title: block.summary.title, depth, tokens: block.tokens.folded, importance: block.retrievability.importance });
    flatten(block.children, depth + 1, out);
  }
  return out;
}

/** Only recalls put blocks in the retrieved zone; anything else would be a bug upstream, and is left out. */
function toRetrievals(retrieved: readonly Retrieval[]): TimelineRetrieval[] {
  const out: TimelineRetrieval[] = [];
  for (const r of retrieved) {
    if (isRecall(r.trigger)) out.push({ blockId: r.blockId, from: r.from, to: r.to, level: r.level, since: r.since, until: r.until, trigger: r.trigger });
  }
  return out;
}

export function toTimelineData(run: FoldRun): TimelineData {
  return {
    iterations: run.iterations.length,
    levels: Uint8Array.from(run.levels),
    blocks: flatten(run.blocks, 0, []),
    moments: run.moments.map((m) => ({ iteration: m.iteration, kind: m.kind, label: m.label })),
    retrieved: toRetrievals(run.retrieved),
    partitions: run.partitions.map((p) => ({ zone: p.zone, tokens: p.tokens, budget: p.budget })),
  };
}
