/**
 * The timeline's accessibility layer: one transparent, focusable button per visible block,
 * positioned over its span on the canvas, so keyboard and screen-reader users can reach blocks.
 * Buttons are memoized and placed relative to an anchor (layer-geometry.ts): a pan moves the list
 * with one transform instead of restyling every button each frame.
 */
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import type { BlockRect, Viewport } from './geometry.ts';
import { layerBox, layerOffset } from './layer-geometry.ts';

/** "Fix parser, iterations 3–9, level L2" (iterations are 1-based for people). */
export function blockLabel(rect: BlockRect): string {
  const { title, from, to, level } = rect.block;
  return `${title}, iterations ${from + 1}–${to + 1}, level L${level}`;
}

interface BlockLayerProps {
  rects: readonly BlockRect[];
  /** The viewport and stage width the rects were planned for; without them buttons take the rects' boxes. */
  viewport?: Viewport;
  width?: number;
  /** While the zoom moves the rects are stale: the list is hidden (useSettledLayer). */
  settling?: boolean;
  onOpen: (id: string) => void;
  onFocusBlock: (rect: BlockRect | undefined) => void;
}

interface BlockButtonProps {
  id: string;
  left: number;
  top: number;
  width: number;
  height: number;
  label: string;
  onOpen: (id: string) => void;
  onFocus: (id: string | undefined) => void;
}

const BlockButton = memo(function BlockButton({ id, left, top, width, height, label, onOpen, onFocus }: BlockButtonProps) {
  return (
    <li>
      <button
        type="button"
        className="timeline-block"
        style={{ left, top, width, height }}
        aria-label={label}
        data-testid="timeline.block"
        data-block-id={id}
        onClick={() => onOpen(id)}
        onFocus={() => onFocus(id)}
        onBlur={() => onFocus(undefined)}
      />
    </li>
  );
});

export function BlockLayer({ rects, viewport, width, settling, onOpen, onFocusBlock }: BlockLayerProps) {
  const anchored = viewport !== undefined && width !== undefined;
  // The focus handler reports the block's current rect, not the one its button was rendered with.
  const rectsRef = useRef(rects);
  useLayoutEffect(() => {
    rectsRef.current = rects;
  }, [rects]);
  const onFocus = useCallback(
    (id: string | undefined) => onFocusBlock(id === undefined ? undefined : rectsRef.current.find((rect) => rect.id === id)),
    [onFocusBlock],
  );
  return (
    <ul
      className="timeline-blocks"
      aria-label="Folded blocks in view"
      data-settling={settling || undefined}
      style={anchored ? { transform: `translateX(${layerOffset(viewport)}px)` } : undefined}
    >
      {rects.map((rect) => {
        const box = anchored ? layerBox(rect, viewport, width) : { left: rect.x, top: rect.y, width: rect.w, height: rect.h };
        return <BlockButton key={rect.id} id={rect.id} {...box} label={blockLabel(rect)} onOpen={onOpen} onFocus={onFocus} />;
      })}
    </ul>
  );
}
