/**
 * A virtualized vertical list of variable-height rows: only what is on screen is rendered.
 *
 * Sizes are read only where the browser has laid the page out already: a row's size from its
 * ResizeObserver entry, the viewport's from its own observer. Reading `offsetHeight` when React
 * mounts a row (the library's default) forced the layout of the whole page inside React's commit:
 * on a first visit, the transcript's render and its 20 ms layout made one task of 45 to 53 ms CPU.
 * Until the first observation, a row counts as its estimate and the viewport as the window. The
 * library also scrolls a new viewport to its start when it mounts, which forces the same layout;
 * a new element is at its start already, so that first write is left out. What an observer
 * reports is applied before the browser paints that frame (flushSync), as a measure in React's
 * commit was: rows never show at their estimated places.
 */
import { elementScroll, observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useImperativeHandle, useReducer, useRef, useState, type ReactNode, type Ref } from 'react';
import { flushSync } from 'react-dom';
import { afterNextFrame } from './after-next-frame.ts';

export interface VirtualListHandle {
  scrollToIndex: (index: number) => void;
}

export interface VirtualListProps {
  count: number;
  estimate: (index: number) => number;
  render: (index: number) => ReactNode;
  label: string;
  testId: string;
  handle?: Ref<VirtualListHandle>;
  /** A fixed height for the viewport, in px. Without it the list fills its flex container and counts as the window's height until it is observed. */
  height?: number;
}

/** Rows rendered beyond each end of the view, once the list has been drawn. Default 6. */
const OVERSCAN = 6;

type ListVirtualizer = Virtualizer<HTMLDivElement, Element>;

/** True while a ResizeObserver delivers sizes to a list (until the microtasks after its callback). */
let observing = false;

function markObserving(): void {
  if (observing) return;
  observing = true;
  queueMicrotask(() => {
    observing = false;
  });
}

/** A row's size: observed when the observer reports it, else the last size known or the estimate (no layout read). */
function rowSize(element: Element, entry: ResizeObserverEntry | undefined, instance: ListVirtualizer): number {
  if (entry) markObserving();
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  // An observer entry without box sizes (older engines): the page is laid out when it is delivered.
  if (entry) return (element as HTMLElement).offsetHeight;
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/** The viewport's size, reported by a ResizeObserver after layout (the library reads it when it mounts). */
function observeViewport(instance: ListVirtualizer, report: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return observeElementRect(instance, report);
  const observer = new ResizeObserver(() => {
    markObserving();
    report({ width: element.clientWidth, height: element.clientHeight });
  });
  observer.observe(element);
  return () => observer.disconnect();
}

/** Viewports the list has written a scroll position to (or left at the start when they were new). */
const placed = new WeakSet<Element>();

/** Scrolls the viewport, except the library's first write of 0 to a new one: it is at 0 already. */
function scrollViewport(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: ListVirtualizer): void {
  const element = instance.scrollElement;
  if (element && !placed.has(element)) {
    placed.add(element);
    if (offset + (options.adjustments ?? 0) === 0) return;
  }
  elementScroll(offset, options, instance);
}

/** Before the viewport is observed: its fixed height, else the window's, which the list never exceeds (so enough rows are rendered). */
function initialRect(height: number | undefined): Rect {
  if (typeof window === 'undefined') return { width: 0, height: height ?? 0 };
  return { width: window.innerWidth, height: height ?? window.innerHeight };
}

/** A row's content, rendered again only when its index or the list's render changes (not when rows move). */
const RowContent = memo(function RowContent({ index, render }: { index: number; render: (index: number) => ReactNode }) {
  return render(index);
});

export function VirtualList({ count, estimate, render, label, testId, handle, height }: VirtualListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  // The rows below the view join once the first ones are drawn: the first layout is that of the view.
  const [overscan, setOverscan] = useState(0);
  useEffect(() => afterNextFrame(() => setOverscan(OVERSCAN)), []);
  const virtualizer: ListVirtualizer = useVirtualizer({
    count,
    getScrollElement: () => parent.current,
    estimateSize: estimate,
    overscan,
    measureElement: rowSize,
    observeElementRect: observeViewport,
    scrollToFn: scrollViewport,
    initialRect: initialRect(height),
    // Sizes observed after layout change the rows' places: drawn in this frame, not the next.
    onChange: (_instance, sync) => {
      if (observing && !sync) flushSync(redraw);
    },
  });
  useImperativeHandle(handle, () => ({ scrollToIndex: (index) => virtualizer.scrollToIndex(index, { align: 'start' }) }), [virtualizer]);
  return (
    <div ref={parent} className="transcript" data-testid={testId} tabIndex={0} aria-label={label} style={height === undefined ? undefined : { height }}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="transcript-row" style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}>
            <RowContent index={item.index} render={render} />
          </div>
        ))}
      </div>
    </div>
  );
}
