/**
 * The timeline's accessibility layer: one transparent, focusable button per visible block,
 * positioned over its span on the canvas, so keyboard and screen-reader users can reach blocks.
 */
import type { BlockRect } from './geometry.ts';

/** "Fix parser, iterations 3–9, level L2" (iterations are 1-based for people). */
export function blockLabel(rect: BlockRect): string {
  const { title, from, to, level } = rect.block;
  return `${title}, iterations ${from + 1}–${to + 1}, level L${level}`;
}

interface BlockLayerProps {
  rects: readonly BlockRect[];
  onOpen: (id: string) => void;
  onFocusBlock: (rect: BlockRect | undefined) => void;
}

export function BlockLayer({ rects, onOpen, onFocusBlock }: BlockLayerProps) {
  return (
    <ul className="timeline-blocks" aria-label="Folded blocks in view">
      {rects.map((rect) => (
        <li key={rect.id}>
          <button
            type="button"
            className="timeline-block"
            style={{ left: rect.x, top: rect.y, width: rect.w, height: rect.h }}
            aria-label={blockLabel(rect)}
            data-testid="timeline.block"
            data-block-id={rect.id}
            onClick={() => onOpen(rect.id)}
            onFocus={() => onFocusBlock(rect)}
            onBlur={() => onFocusBlock(undefined)}
          />
        </li>
      ))}
    </ul>
  );
}
