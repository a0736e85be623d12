/**
 * The DOM block layer's input, held back while the zoom changes. A zoom step moves and resizes
 * every block button (hundreds at 100k iterations), and restyling them each frame costs more than
 * the whole canvas; so while the zoom moves, the layer keeps its last rects (hidden, clicks
 * ignored, focus kept) and catches up LAYER_SETTLE_MS after the last step. Pans, new data and
 * size changes apply at once: a pan at one zoom is cheap thanks to the anchored layout
 * (layer-geometry.ts).
 */
import { useEffect, useState } from 'react';
import type { TimelinePlan } from './geometry.ts';

/** How long the zoom must rest before the block layer follows it. Default 150. Unit: ms. */
export const LAYER_SETTLE_MS = 150;

export interface SettledLayer {
  /** The plan the layer shows: the current one, or while settling the last one before the zoom moved. */
  plan: TimelinePlan;
  /** True while the zoom moves and the layer waits. */
  settling: boolean;
}

/** True when only the zoom differs between the shown layer and the current plan (same data and size). */
export function zoomOnlyChange(shown: TimelinePlan, shownData: unknown, plan: TimelinePlan, data: unknown): boolean {
  return (
    shownData === data &&
    shown.width === plan.width &&
    shown.height === plan.height &&
    shown.viewport.pxPerIteration !== plan.viewport.pxPerIteration
  );
}

export function useSettledLayer(plan: TimelinePlan, data: unknown, delayMs = LAYER_SETTLE_MS): SettledLayer {
  const [shown, setShown] = useState({ plan, data });
  const settling = zoomOnlyChange(shown.plan, shown.data, plan, data);
  // Storing the previous render's plan (React's documented pattern for state derived from props).
  if (!settling && shown.plan !== plan) setShown({ plan, data });
  useEffect(() => {
    if (!settling) return;
    const timer = setTimeout(() => setShown({ plan, data }), delayMs);
    return () => clearTimeout(timer);
  }, [settling, plan, data, delayMs]);
  return { plan: settling ? shown.plan : plan, settling };
}
