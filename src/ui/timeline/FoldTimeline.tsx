/**
 * The fold timeline: a canvas (level band, retrieved-zone strip, folded blocks by depth, key
 * moments, replay cursor) under a DOM layer of focusable block and recalled-block buttons. Wheel / +/- zoom, drag / arrows pan, 0 resets.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { BlockLayer } from './BlockLayer.tsx';
import { drawProbe } from './draw-probe.ts';
import { drawTimeline, readColors, type TimelineColors } from './draw.ts';
import { hitTest, naturalHeight, planTimeline, visibleRange, type BlockRect, type RetrievedRect, type Viewport } from './geometry.ts';
import { RetrievedLayer } from './RetrievedLayer.tsx';
import { TimelineLegend } from './TimelineLegend.tsx';
import { TimelineTooltip } from './TimelineTooltip.tsx';
import type { TimelineData } from './types.ts';
import { useSettledLayer } from './useSettledLayer.ts';
import { useTimelineView } from './useTimelineView.ts';
import './timeline.css';

export interface FoldTimelineProps {
  data: TimelineData;
  onOpenBlock: (id: string) => void;
  /** Replay position (0-based iteration): drawn as a cursor line. */
  currentIteration?: number;
  /** Canvas height in CSS pixels; by default tall enough for every depth row. */
  height?: number;
}

const ZOOM_STEP = 1.5;
const PAN_STEP = 40;
const DRAG_THRESHOLD = 4;

interface Tip {
  id: string;
  /** A folded block's row, or a recalled block on the retrieved strip. */
  kind: 'block' | 'retrieved';
  x: number;
  y: number;
}

export function FoldTimeline({ data, onOpenBlock, currentIteration, height }: FoldTimelineProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const colorsRef = useRef<TimelineColors | null>(null);
  const dragRef = useRef<{ pointerId: number; x: number; moved: boolean; start: Viewport } | null>(null);
  const suppressClickRef = useRef(false);
  const refocusRef = useRef(false);
  const [hover, setHover] = useState<Tip | null>(null);
  const [focusTip, setFocusTip] = useState<Tip | null>(null);
  const [dragging, setDragging] = useState(false);

  const total = data.iterations;
  const view = useTimelineView(stageRef, total);
  const { width, dpr, viewport } = view;
  const canvasHeight = height ?? naturalHeight(data.blocks);
  const plan = useMemo(() => {
    const { onPlan } = drawProbe;
    if (!onPlan) return planTimeline(data, viewport, width, canvasHeight, currentIteration);
    const started = performance.now();
    const planned = planTimeline(data, viewport, width, canvasHeight, currentIteration);
    onPlan(performance.now() - started);
    return planned;
  }, [data, viewport, width, canvasHeight, currentIteration]);
  const layer = useSettledLayer(plan, data);
  const settlingRef = useRef(false);

  // Redraw on the next animation frame, only when the plan (viewport, data, size, cursor) changes.
  useEffect(() => {
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!canvas || !root || width <= 0) return;
    const frame = requestAnimationFrame(() => {
      const pixelWidth = Math.round(width * dpr);
      const pixelHeight = Math.round(canvasHeight * dpr);
      if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
      if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      colorsRef.current ??= readColors(root);
      const started = performance.now();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawTimeline(ctx, plan, colorsRef.current);
      drawProbe.onDraw?.(performance.now() - started, plan);
      root.dataset.cells = String(plan.runs.length);
      root.dataset.blocks = String(plan.rects.length);
      root.dataset.retrieved = String(plan.retrieved.length);
      root.dataset.start = plan.viewport.start.toFixed(3);
      root.dataset.pxPerIteration = plan.viewport.pxPerIteration.toFixed(6);
    });
    return () => cancelAnimationFrame(frame);
  }, [plan, dpr, width, canvasHeight]);

  // A keyboard pan or zoom can unmount the focused block's button (once the layer has settled):
  // keep focus in the timeline.
  useLayoutEffect(() => {
    settlingRef.current = layer.settling;
    if (!refocusRef.current || layer.settling) return;
    refocusRef.current = false;
    if (!rootRef.current?.contains(document.activeElement)) canvasRef.current?.focus();
  }, [layer.plan, layer.settling]);

  const rectsById = useMemo(() => new Map(plan.rects.map((rect) => [rect.id, rect])), [plan.rects]);
  const localPoint = (event: PointerEvent) => {
    const box = stageRef.current?.getBoundingClientRect();
    return { x: event.clientX - (box?.left ?? 0), y: event.clientY - (box?.top ?? 0) };
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    suppressClickRef.current = false;
    dragRef.current = { pointerId: event.pointerId, x: event.clientX, moved: false, start: viewport };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const drag = dragRef.current;
    if (drag && drag.pointerId === event.pointerId) {
      const dx = event.clientX - drag.x;
      if (!drag.moved && Math.abs(dx) >= DRAG_THRESHOLD) {
        drag.moved = true;
        setDragging(true);
        setHover(null);
        event.currentTarget.setPointerCapture(event.pointerId);
      }
      if (drag.moved) {
        view.setViewport({ start: drag.start.start - dx / drag.start.pxPerIteration, pxPerIteration: drag.start.pxPerIteration });
        return;
      }
    }
    const point = localPoint(event);
    const recalled = hitTest(plan.retrieved, point.x, point.y);
    const id = recalled ?? hitTest(plan.rects, point.x, point.y);
    setHover(id ? { id, kind: recalled ? 'retrieved' : 'block', ...point } : null);
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    const drag = dragRef.current;
    if (!drag || drag.pointerId !== event.pointerId) return;
    // A drag must not end in a click; the flag outlives only this gesture's click event.
    if (drag.moved) {
      suppressClickRef.current = true;
      setTimeout(() => (suppressClickRef.current = false), 0);
    }
    dragRef.current = null;
    setDragging(false);
  };

  const open = useCallback(
    (id: string) => {
      if (suppressClickRef.current) {
        suppressClickRef.current = false;
        return;
      }
      // While the zoom moves, the hidden layer's buttons are not where their blocks are drawn.
      if (settlingRef.current) return;
      onOpenBlock(id);
    },
    [onOpenBlock],
  );
  const onFocusBlock = useCallback((rect: BlockRect | undefined) => {
    setFocusTip(rect ? { id: rect.id, kind: 'block', x: rect.x, y: rect.y + rect.h - 12 } : null);
  }, []);
  const onFocusRetrieved = useCallback((rect: RetrievedRect | undefined) => {
    setFocusTip(rect ? { id: rect.id, kind: 'retrieved', x: rect.x, y: rect.y + rect.h - 12 } : null);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const big = event.shiftKey ? width * 0.8 : PAN_STEP;
    const actions: Record<string, () => void> = {
      '+': () => view.zoom(ZOOM_STEP),
      '=': () => view.zoom(ZOOM_STEP),
      '-': () => view.zoom(1 / ZOOM_STEP),
      _: () => view.zoom(1 / ZOOM_STEP),
      ArrowLeft: () => view.panBy(-big),
      ArrowRight: () => view.panBy(big),
      Home: () => view.setViewport({ start: 0, pxPerIteration: viewport.pxPerIteration }),
      End: () => view.setViewport({ start: total, pxPerIteration: viewport.pxPerIteration }),
      '0': view.reset,
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    refocusRef.current = true;
    setFocusTip(null);
    action();
  };

  const tip = hover ?? focusTip;
  const tipRetrieval = tip?.kind === 'retrieved' ? plan.retrieved.find((r) => r.id === tip.id)?.retrieval : undefined;
  // A recalled block may have no row in view (or in the final layout): look it up among all blocks.
  const tipBlock = tip ? (rectsById.get(tip.id)?.block ?? (tipRetrieval ? data.blocks.find((b) => b.id === tip.id) : undefined)) : undefined;
  const range = visibleRange(viewport, width, total);
  const summary = `Fold timeline: ${total.toLocaleString('en-US')} iterations, ${data.blocks.length.toLocaleString('en-US')} folded blocks${data.retrieved.length > 0 ? `, ${data.retrieved.length.toLocaleString('en-US')} in the retrieved zone` : ''}`;

  return (
    <div ref={rootRef} className="timeline" role="group" aria-label={summary} data-testid="timeline" onKeyDown={onKeyDown}>
      <div className="timeline-toolbar">
        <button type="button" onClick={() => view.zoom(1 / ZOOM_STEP)} aria-label="Zoom out" data-testid="timeline.zoom-out">
          −
        </button>
        <button type="button" onClick={() => view.zoom(ZOOM_STEP)} aria-label="Zoom in" data-testid="timeline.zoom-in">
          +
        </button>
        <button type="button" onClick={view.reset} data-testid="timeline.reset">
          Fit
        </button>
        <span data-testid="timeline.range">
          {range.to >= range.from
            ? `Iterations ${(range.from + 1).toLocaleString('en-US')}–${(range.to + 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`
            : 'No iterations'}
        </span>
        <span className="muted">· wheel or +/− to zoom, drag or ←/→ to pan (Shift: faster), 0 to fit</span>
      </div>
      {/* The tooltip sits beside the stage, not in it: the stage clips what it draws, the tooltip may run past it. */}
      <div className="timeline-stage-wrap">
      <div
        ref={stageRef}
        className={dragging ? 'timeline-stage dragging' : 'timeline-stage'}
        style={{ height: canvasHeight }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onPointerLeave={() => setHover(null)}
      >
        <canvas
          ref={canvasRef}
          className="timeline-canvas"
          style={{ width, height: canvasHeight }}
          tabIndex={0}
          role="img"
          aria-label={`Levels of iterations ${range.from + 1}–${range.to + 1}; use arrow keys to pan and plus or minus to zoom`}
          data-testid="timeline.canvas"
        />
        <RetrievedLayer rects={layer.plan.retrieved} settling={layer.settling} onOpen={open} onFocusRetrieved={onFocusRetrieved} />
        <BlockLayer
          rects={layer.plan.rects}
          viewport={layer.plan.viewport}
          width={layer.plan.width}
          settling={layer.settling}
          onOpen={open}
          onFocusBlock={onFocusBlock}
        />
      </div>
      {tip && (tipBlock || tipRetrieval) && <TimelineTooltip block={tipBlock} retrieval={tipRetrieval} x={tip.x} y={tip.y} stageWidth={width} />}
      </div>
      <TimelineLegend />
    </div>
  );
}
