/**
 * A live session's events on their way into the tab's store: a reply streams in many small
 * pieces (hundreds a second from a fast model), and one store update per piece would redraw the
 * panel as often. Pieces are gathered and applied together at most once per animation frame;
 * every other event first applies the pieces before it, so the order is kept and no text is lost.
 * Stop freezes the reply where the user saw it: pieces not drawn yet, and any the model still sends
 * while it stops, are dropped, and the text shown stays on screen marked as not complete.
 */
import type { AgentEvent } from '../core/agent/types.ts';
import { applyLiveEvent } from './live-events.ts';
import type { LiveRuntime } from './live-store.ts';

/** Runs `flush` once, later (the next frame); returns a function that cancels it. */
export type FrameScheduler = (flush: () => void) => () => void;

/** Changes the session's runtime in the store. */
export type RuntimePatch = (change: (runtime: LiveRuntime) => Partial<LiveRuntime>) => void;

/** Fallback when no frame comes (a hidden tab draws none), ms: pieces still reach the store. */
export const HIDDEN_FLUSH_MS = 50;

/** The page's scheduler: the next animation frame, or `HIDDEN_FLUSH_MS` if no frame comes first. */
export const nextFrame: FrameScheduler = (flush) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    flush();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, HIDDEN_FLUSH_MS);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

/** A streamed piece of text or thinking (a tool call's delta is applied at once: it adds a row). */
function isPiece(event: AgentEvent): event is Extract<AgentEvent, { type: 'delta' }> {
  return event.type === 'delta' && event.delta.type !== 'tool_call';
}

/** The runtime after `events` in order, as one change. */
export function applyLiveEvents(runtime: LiveRuntime, events: readonly AgentEvent[], now: number): Partial<LiveRuntime> {
  let next = runtime;
  for (const event of events) next = { ...next, ...applyLiveEvent(next, event, now) };
  return next;
}

export interface LiveStream {
  /** An event from the session's worker. */
  event(event: AgentEvent): void;
  /** Applies the pieces gathered so far now (before a turn's end is drawn). */
  flush(): void;
  /** Stop: what is on screen stays, as not complete; later pieces of this reply are dropped. */
  stop(): void;
  /** A new turn starts: pieces are taken again, and a stopped reply is no longer shown. */
  begin(): void;
}

export function createLiveStream(patch: RuntimePatch, schedule: FrameScheduler, now: () => number = Date.now): LiveStream {
  let pending: AgentEvent[] = [];
  let cancel: (() => void) | undefined;
  let stopped = false;

  const unschedule = () => {
    const pendingCancel = cancel;
    cancel = undefined;
    pendingCancel?.();
  };
  const flush = () => {
    unschedule();
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    patch((runtime) => applyLiveEvents(runtime, batch, now()));
  };

  return {
    event(event) {
      if (isPiece(event)) {
        if (stopped) return;
        pending.push(event);
        if (pending.length === 1) {
          // A scheduler may run the flush at once: `cancel` is only kept while a flush is due.
          const due = schedule(flush);
          if (pending.length > 0) cancel = due;
        }
        return;
      }
      flush();
      // A reply that finished as Stop was pressed is in the journal: the stopped copy goes.
      if (stopped && event.type === 'entry' && event.entry.role === 'assistant') patch(() => ({ unfinished: undefined }));
      patch((runtime) => applyLiveEvent(runtime, event, now()));
    },
    flush,
    stop() {
      if (stopped) return;
      stopped = true;
      unschedule();
      pending = [];
      patch((runtime) => ({ unfinished: runtime.streaming || undefined, streaming: '', thinking: '' }));
    },
    begin() {
      flush();
      stopped = false;
      patch(() => ({ unfinished: undefined }));
    },
  };
}
