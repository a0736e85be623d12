/** The hover / focus tooltip of a timeline block: title, iteration range, tokens and importance. */
import type { TimelineBlock } from './types.ts';

interface TimelineTooltipProps {
  block: TimelineBlock;
  /** Anchor in stage pixels; the tooltip is kept inside the stage width. */
  x: number;
  y: number;
  stageWidth: number;
}

const TOOLTIP_WIDTH = 280;

function formatImportance(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function TimelineTooltip({ block, x, y, stageWidth }: TimelineTooltipProps) {
  const left = Math.max(0, Math.min(x + 12, stageWidth - TOOLTIP_WIDTH));
  return (
    <div className="timeline-tooltip" role="tooltip" data-testid="timeline.tooltip" style={{ left, top: y + 12 }}>
      <strong>{block.title}</strong>
      <span>
        Iterations {(block.from + 1).toLocaleString('en-US')}–{(block.to + 1).toLocaleString('en-US')} · level L{block.level}
      </span>
      <br />
      <span>
        {block.tokens.toLocaleString('en-US')} tokens · importance {formatImportance(block.importance)}
      </span>
    </div>
  );
}
