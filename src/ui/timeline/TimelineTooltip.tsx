/**
 * The hover / focus tooltip of a timeline block (title, iteration range, tokens and importance)
 * or of a recalled block on the retrieved strip (what recalled it and when it fades).
 */
import { recallPhrase } from './RetrievedLayer.tsx';
import type { TimelineBlock, TimelineRetrieval } from './types.ts';

interface TimelineTooltipProps {
  /** The block; absent for a recalled block the final layout no longer has under that id. */
  block: TimelineBlock | undefined;
  /** Set when the tooltip is for the block's stay in the retrieved zone. */
  retrieval?: TimelineRetrieval | undefined;
  /** Anchor in stage pixels; the tooltip is kept inside the stage width and may run below the stage (it is not inside it). */
  x: number;
  y: number;
  stageWidth: number;
}

const TOOLTIP_WIDTH = 280;

function formatImportance(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function TimelineTooltip({ block, retrieval, x, y, stageWidth }: TimelineTooltipProps) {
  const left = Math.max(0, Math.min(x + 12, stageWidth - TOOLTIP_WIDTH));
  const range = retrieval ?? block;
  return (
    <div className="timeline-tooltip" role="tooltip" data-testid="timeline.tooltip" style={{ left, top: y + 12 }}>
      <strong>{block?.title ?? 'Recalled block'}</strong>
      {range && (
        <span>
          Iterations {(range.from + 1).toLocaleString('en-US')}–{(range.to + 1).toLocaleString('en-US')} · level L{range.level}
          {retrieval ? ' in the retrieved zone' : ''}
        </span>
      )}
      {retrieval && (
        <>
          <br />
          <span>{capitalize(recallPhrase(retrieval, (n) => n.toLocaleString('en-US')))}</span>
        </>
      )}
      {block && (
        <>
          <br />
          <span>
            {block.tokens.toLocaleString('en-US')} tokens{retrieval ? ' folded' : ''} · importance {formatImportance(block.importance)}
          </span>
        </>
      )}
    </div>
  );
}
