/**
 * Placement of the timeline's DOM layer (BlockLayer). Block buttons sit at fixed offsets from an
 * anchor iteration and the whole list is translated by one transform, so a pan at one zoom leaves
 * every button's style untouched: the browser restyles and lays out only the buttons that enter
 * or leave the view, not all of them on every frame.
 */
import { xOf, type BlockRect, type Viewport } from './geometry.ts';

/**
 * The anchor stays put while the view pans within this distance of it; beyond, it moves (and every
 * button is restyled, once). Keeps offsets far inside the browser's layout range (about ±33M px).
 * Default 1,000,000. Unit: CSS px.
 */
export const LAYER_SPAN_PX = 1_000_000;

/** A button's box in the layer, relative to the anchor (left) and the canvas top (top). Unit: CSS px. */
export interface LayerBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The anchor iteration for a viewport: constant while panning at one zoom within one span. */
export function layerOrigin(viewport: Viewport): number {
  const px = viewport.pxPerIteration;
  return (Math.floor((viewport.start * px) / LAYER_SPAN_PX) * LAYER_SPAN_PX) / px;
}

/** The layer's translation for a viewport: where the anchor is on screen, in (-LAYER_SPAN_PX, 0]. */
export function layerOffset(viewport: Viewport): number {
  return xOf(viewport, layerOrigin(viewport));
}

/**
 * A block's box relative to the anchor, clipped to the view like its rect. Computed from the
 * anchor, not from the rect, so a block wholly in view gets bit-identical numbers on every pan at
 * one zoom (and its memoized button does not re-render); only blocks crossing an edge change.
 */
export function layerBox(rect: BlockRect, viewport: Viewport, width: number): LayerBox {
  const origin = layerOrigin(viewport);
  const px = viewport.pxPerIteration;
  const viewLeft = (viewport.start - origin) * px;
  const left = Math.max(viewLeft, (rect.block.from - origin) * px);
  const right = Math.min(viewLeft + width, (rect.block.to + 1 - origin) * px);
  return { left, top: rect.y, width: Math.max(0, right - left), height: rect.h };
}
