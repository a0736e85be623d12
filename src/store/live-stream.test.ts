// A live session's streamed pieces into the tab's store: at most one store update (so one redraw
// of the panel) per frame, the same text as applying every piece, the order of other events kept,
// and Stop keeping exactly the text that was shown. Frames are run by hand, never by a timer.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/agent/types.ts';
import type { Entry } from '../core/journal/entry.ts';
import { applyLiveEvent } from './live-events.ts';
import { IDLE_RUNTIME, useLiveStore, type LiveRuntime } from './live-store.ts';
import { createLiveStream, type FrameScheduler } from './live-stream.ts';

const ID = 'session';
const text = (t: string): AgentEvent => ({ type: 'delta', delta: { type: 'text', text: t } });
const thinking = (t: string): AgentEvent => ({ type: 'delta', delta: { type: 'thinking', text: t } });
const entry = (id: string, role: Entry['role'], t: string): AgentEvent => ({ type: 'entry', entry: { id, parentId: null, role, blocks: [{ type: 'text', text: t }] } as unknown as Entry });

/** Frames by hand: `frame()` runs the flush the stream asked for, if any. */
function frames() {
  let queued: (() => void) | undefined;
  const schedule: FrameScheduler = (flush) => {
    queued = flush;
    return () => { if (queued === flush) queued = undefined; };
  };
  return {
    schedule,
    frame: () => {
      const flush = queued;
      queued = undefined;
      flush?.();
    },
  };
}

/** The stream into the real store, counting its updates (each one redraws the panel). */
function setup() {
  const { schedule, frame } = frames();
  const stream = createLiveStream((change) => useLiveStore.getState().patch(ID, change), schedule, () => 1_000);
  let updates = 0;
  const unsubscribe = useLiveStore.subscribe(() => updates++);
  return { stream, frame, updates: () => updates, runtime: () => useLiveStore.getState().runtimes[ID]!, unsubscribe };
}

const pieces = Array.from({ length: 500 }, (_, i) => `w${i} `);

function fresh() {
  useLiveStore.getState().detach(ID);
  useLiveStore.getState().patch(ID, IDLE_RUNTIME);
}
beforeEach(fresh);

describe('streamed pieces into the store', () => {
  it('500 pieces arriving between frames update the store once per frame, with the same text', () => {
    const { stream, frame, updates, runtime } = setup();
    pieces.forEach((piece, i) => {
      stream.event(text(piece));
      if (i % 10 === 9) frame();
    });
    expect(updates()).toBe(50);
    expect(runtime().streaming).toBe(pieces.join(''));
    expect(runtime().streamedChars).toBe(pieces.join('').length);
  });

  it('500 pieces within one frame are one update', () => {
    const { stream, frame, updates, runtime } = setup();
    for (const piece of pieces) stream.event(text(piece));
    expect(updates()).toBe(0);
    frame();
    expect(updates()).toBe(1);
    expect(runtime().streaming).toBe(pieces.join(''));
  });

  it('a scheduler that flushes at once applies every piece as it comes (one update each: the page before coalescing)', () => {
    const stream = createLiveStream((change) => useLiveStore.getState().patch(ID, change), (flush) => { flush(); return () => undefined; }, () => 1_000);
    let updates = 0;
    const unsubscribe = useLiveStore.subscribe(() => updates++);
    for (const piece of pieces) stream.event(text(piece));
    unsubscribe();
    expect(updates).toBe(500);
    expect(useLiveStore.getState().runtimes[ID]!.streaming).toBe(pieces.join(''));
  });

  it('any other event first applies the pieces before it: the same runtime as applying each event', () => {
    const event = fc.oneof(
      fc.string({ maxLength: 5 }).map(text),
      fc.string({ maxLength: 5 }).map(thinking),
      fc.constant<AgentEvent>({ type: 'delta', delta: { type: 'tool_call', id: 't', name: 'read' } }),
      fc.constant<AgentEvent>({ type: 'note', text: 'a note' }),
      fc.constant(entry('a', 'assistant', 'done')),
      fc.constant<AgentEvent>({ type: 'call', call: 1, contextTokens: 10, model: 'm' }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(event, fc.boolean()), { maxLength: 60 }), (script) => {
        fresh();
        const { stream, frame, runtime, unsubscribe } = setup();
        let expected: LiveRuntime = { ...IDLE_RUNTIME };
        for (const [e, frameAfter] of script) {
          stream.event(e);
          expected = { ...expected, ...applyLiveEvent(expected, e, 1_000) };
          if (frameAfter) frame();
        }
        stream.flush();
        unsubscribe();
        expect(runtime()).toEqual(expected);
      }),
    );
  });

  it('Stop keeps exactly the text shown, as not complete; pieces not drawn yet and later ones are dropped', () => {
    const { stream, frame, runtime } = setup();
    for (const piece of pieces.slice(0, 20)) stream.event(text(piece));
    frame();
    const shown = runtime().streaming;
    expect(shown).toBe(pieces.slice(0, 20).join(''));
    // Not drawn yet when Stop is pressed, then sent by the model while it stops.
    for (const piece of pieces.slice(20, 25)) stream.event(text(piece));
    stream.stop();
    for (const piece of pieces.slice(25, 30)) stream.event(text(piece));
    frame();
    expect(runtime().unfinished).toBe(shown);
    expect(runtime().streaming).toBe('');

    // The next turn no longer shows it, and streams again.
    stream.begin();
    expect(runtime().unfinished).toBeUndefined();
    stream.event(text('Next.'));
    frame();
    expect(runtime().streaming).toBe('Next.');
  });

  it('a reply that completed as Stop was pressed is in the journal: no unfinished copy stays', () => {
    const { stream, frame, runtime } = setup();
    stream.event(text('All of it.'));
    frame();
    stream.stop();
    expect(runtime().unfinished).toBe('All of it.');
    stream.event(entry('a', 'assistant', 'All of it.'));
    expect(runtime().unfinished).toBeUndefined();
  });
});
