/** The compact arrays the fold timeline draws from a run: levels, blocks with nesting depth, key moments, recalls, zones. */
import type { TimelineBlock, TimelineData } from './timeline-data.ts';
import type { FoldedBlock, FoldRun } from './types.ts';

function flatten(blocks: readonly FoldedBlock[], depth: number, out: TimelineBlock[]): TimelineBlock[] {
  for (const block of blocks) {
    out.push({ id: block.id, level: block.level, from: block.from, to: block.to, title: block.summary.title, depth, tokens: block.tokens.folded, importance: block.retrievability.importance });
    flatten(block.children, depth + 1, out);
  }
  return out;
}

export function toTimelineData(run: FoldRun): TimelineData {
  return {
    iterations: run.iterations.length,
    levels: Uint8Array.from(run.levels),
    blocks: flatten(run.blocks, 0, []),
    moments: run.moments.map((m) => ({ iteration: m.iteration, kind: m.kind, label: m.label })),
    retrieved: run.retrieved.map(({ tokens: _tokens, ...r }) => r),
    partitions: run.partitions.map((p) => ({ zone: p.zone, tokens: p.tokens, budget: p.budget })),
  };
}
