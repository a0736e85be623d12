/**
 * The accessibility layer of the timeline's retrieved strip: one focusable button per recalled
 * block over its hatched span, labelled with its range, level, what recalled it and when it fades.
 * There are only a handful, so they are placed straight from the plan's rects (no anchoring as in
 * BlockLayer).
 */
import type { RetrievedRect } from './geometry.ts';
import type { RecallTrigger, TimelineRetrieval } from './types.ts';

const TRIGGERS: Record<RecallTrigger, string> = {
  'recall-explicit': 'explicit recall',
  'recall-implicit': 'implicit recall',
  'recall-error': 'recall on an error',
};

/** "implicit recall at 58, fades at 68" (iterations are 1-based for people; `format` spells the numbers). */
export function recallPhrase(retrieval: TimelineRetrieval, format: (n: number) => string = String): string {
  return `${TRIGGERS[retrieval.trigger]} at ${format(retrieval.since + 1)}, fades at ${format(retrieval.until + 1)}`;
}

/** "Retrieved: iterations 12–20 at L0 (implicit recall at 58, fades at 68)". */
export function retrievedLabel(retrieval: TimelineRetrieval): string {
  return `Retrieved: iterations ${retrieval.from + 1}–${retrieval.to + 1} at L${retrieval.level} (${recallPhrase(retrieval)})`;
}

interface RetrievedLayerProps {
  rects: readonly RetrievedRect[];
  /** While the zoom moves the rects are stale: the list is hidden (useSettledLayer). */
  settling?: boolean;
  onOpen: (id: string) => void;
  onFocusRetrieved: (rect: RetrievedRect | undefined) => void;
}

export function RetrievedLayer({ rects, settling, onOpen, onFocusRetrieved }: RetrievedLayerProps) {
  if (rects.length === 0) return null;
  return (
    <ul className="timeline-blocks" aria-label="Blocks in the retrieved zone" data-settling={settling || undefined}>
      {rects.map((rect) => (
        <li key={rect.id}>
          <button
            type="button"
            className="timeline-block timeline-retrieved"
            style={{ left: rect.x, top: rect.y, width: rect.w, height: rect.h }}
            aria-label={retrievedLabel(rect.retrieval)}
            data-testid="timeline.retrieved"
            data-block-id={rect.id}
            onClick={() => onOpen(rect.id)}
            onFocus={() => onFocusRetrieved(rect)}
            onBlur={() => onFocusRetrieved(undefined)}
          />
        </li>
      ))}
    </ul>
  );
}
