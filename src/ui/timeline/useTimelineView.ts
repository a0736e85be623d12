/**
 * The timeline's view state: the stage's measured width and pixel ratio, and the viewport
 * (null = fit the whole run) with zoom / pan / reset actions and wheel zoom anchored at the pointer.
 */
import { useCallback, useEffect, useMemo, useState, type RefObject } from 'react';
import { clampViewport, fitViewport, pan, zoomAt, type Viewport } from './geometry.ts';

export interface TimelineView {
  width: number;
  dpr: number;
  viewport: Viewport;
  zoom: (factor: number, anchorX?: number) => void;
  panBy: (deltaPx: number) => void;
  setViewport: (viewport: Viewport) => void;
  reset: () => void;
}

/**
 * Wheel zoom: a vertical wheel delta of d pixels zooms by exp(-d × WHEEL_ZOOM); trackpads send
 * small deltas, mice ~100 per notch. Default 0.0015. Unit: natural-log zoom per wheel pixel.
 */
export const WHEEL_ZOOM = 0.0015;

/** `previous` when `next` shows the same view (a pan against an end, a drag at the fit zoom): no re-render. */
function unlessSame(previous: Viewport | null, current: Viewport, next: Viewport): Viewport | null {
  return current.start === next.start && current.pxPerIteration === next.pxPerIteration ? previous : next;
}

export function useTimelineView(stageRef: RefObject<HTMLElement | null>, total: number): TimelineView {
  const [width, setWidth] = useState(0);
  const [dpr, setDpr] = useState(1);
  const [raw, setRaw] = useState<Viewport | null>(null);

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const measure = () => {
      setWidth(Math.floor(stage.clientWidth));
      setDpr(globalThis.devicePixelRatio || 1);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(stage);
    return () => observer.disconnect();
  }, [stageRef]);

  const viewport = useMemo(() => clampViewport(raw ?? fitViewport(width, total), width, total), [raw, width, total]);

  const zoom = useCallback(
    (factor: number, anchorX?: number) =>
      setRaw((previous) => {
        const current = clampViewport(previous ?? fitViewport(width, total), width, total);
        return unlessSame(previous, current, zoomAt(current, factor, anchorX ?? width / 2, width, total));
      }),
    [width, total],
  );
  const panBy = useCallback(
    (deltaPx: number) =>
      setRaw((previous) => {
        const current = clampViewport(previous ?? fitViewport(width, total), width, total);
        return unlessSame(previous, current, pan(current, deltaPx, width, total));
      }),
    [width, total],
  );
  const setViewport = useCallback(
    (next: Viewport) =>
      setRaw((previous) => unlessSame(previous, clampViewport(previous ?? fitViewport(width, total), width, total), clampViewport(next, width, total))),
    [width, total],
  );
  const reset = useCallback(() => setRaw(null), []);

  // React's onWheel is passive, so the page would scroll too: listen natively with passive: false.
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const scale = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? width : 1;
      const horizontal = event.shiftKey ? event.deltaY : event.deltaX;
      if (Math.abs(horizontal) > Math.abs(event.shiftKey ? 0 : event.deltaY)) {
        panBy(horizontal * scale);
        return;
      }
      const anchorX = event.clientX - stage.getBoundingClientRect().left;
      zoom(Math.exp(-event.deltaY * scale * WHEEL_ZOOM), anchorX);
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, [stageRef, width, zoom, panBy]);

  return { width, dpr, viewport, zoom, panBy, setViewport, reset };
}
