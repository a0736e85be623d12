/**
 * Keeps a scrolled log at its newest line as content arrives, unless the user has scrolled up to
 * read something: then it stays where they are until they scroll back to the bottom. Entries that
 * are laid out late (`content-visibility: auto`) change the height under the box: a resize is
 * followed, never taken for the user scrolling away.
 */
import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';

/** How close to the bottom still counts as "at the bottom" (a wheel step's slack). Unit: CSS px. */
export const STICK_SLACK_PX = 32;

interface ScrollBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/** Whether a box scrolled to `scrollTop` shows its last `STICK_SLACK_PX` pixels. */
export function atBottom(box: ScrollBox): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= STICK_SLACK_PX;
}

/**
 * Whether the box should keep following after a scroll event, given what it was before: back at
 * the bottom follows again; moved up over unchanged content is the user reading; anything else
 * (the content grew or shrank under the box) leaves the choice as it was.
 */
export function stillPinned(pinned: boolean, before: { scrollTop: number; scrollHeight: number }, now: ScrollBox): boolean {
  if (atBottom(now)) return true;
  if (now.scrollHeight === before.scrollHeight && now.scrollTop < before.scrollTop) return false;
  return pinned;
}

/** Scrolls `ref` to its bottom whenever `content` changes or its entries resize, while the user had not scrolled away; give `onScroll` to the box. */
export function useStickToBottom(ref: RefObject<HTMLElement | null>, content: unknown): { onScroll: () => void } {
  const pinned = useRef(true);
  const last = useRef({ scrollTop: 0, scrollHeight: 0 });
  const follow = useCallback(() => {
    const box = ref.current;
    if (!box || !pinned.current) return;
    box.scrollTop = box.scrollHeight;
    last.current = { scrollTop: box.scrollTop, scrollHeight: box.scrollHeight };
  }, [ref]);
  const onScroll = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    pinned.current = stillPinned(pinned.current, last.current, box);
    last.current = { scrollTop: box.scrollTop, scrollHeight: box.scrollHeight };
  }, [ref]);
  useLayoutEffect(follow, [follow, content]);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(follow);
    for (const child of Array.from(box.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [ref, follow, content]);
  return { onScroll };
}
