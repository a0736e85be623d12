// The open Fold view and a journal that grows (a live session): growth is folded again after a
// short gathering, once per batch, never while a fold runs, and a steadily growing journal is
// still folded. The timer is driven by hand.
import { describe, expect, it } from 'vitest';
import { createRefoldGate, REFOLD_DELAY_MS, type Timer } from './refold-gate.ts';

function manualTimer() {
  const armed: Array<{ fire: () => void; ms: number; live: boolean }> = [];
  const timer: Timer = (fire, ms) => {
    const entry = { fire, ms, live: true };
    armed.push(entry);
    return () => { entry.live = false; };
  };
  return {
    timer,
    pending: () => armed.filter((t) => t.live).length,
    delays: () => armed.filter((t) => t.live).map((t) => t.ms),
    /** Fires the armed timers (as if their delay passed). */
    elapse: () => {
      for (const t of armed.splice(0)) if (t.live) t.fire();
    },
  };
}

/** The Fold view as the gate sees it: a refold starts a fold of the current journal, which the test then settles. */
function view(initial: number, delay = () => REFOLD_DELAY_MS) {
  const clock = manualTimer();
  const folds: number[] = [];
  let size = initial;
  const gate = createRefoldGate(() => {
    folds.push(size);
    gate.started(size);
  }, delay, clock.timer);
  gate.grew(size);
  gate.started(size);
  gate.settled();
  return { gate, clock, folds, grow: (n: number) => { size += n; gate.grew(size); } };
}

describe('refolding the open Fold view as the journal grows', () => {
  it('the first fold covers the journal: no refold without growth', () => {
    const { clock, folds } = view(10);
    expect(clock.pending()).toBe(0);
    clock.elapse();
    expect(folds).toEqual([]);
  });

  it('growth is gathered and folded once, after the delay', () => {
    const { gate, clock, folds, grow } = view(10);
    grow(1);
    grow(1);
    grow(3);
    expect(folds).toEqual([]);
    expect(clock.pending()).toBe(1);
    expect(clock.delays()).toEqual([REFOLD_DELAY_MS]);
    clock.elapse();
    expect(folds).toEqual([15]);
    gate.settled();
    clock.elapse();
    expect(folds).toEqual([15]);
  });

  it('never while a fold runs: the growth during it is folded right after it ends', () => {
    const { gate, clock, folds, grow } = view(10);
    grow(2);
    clock.elapse();
    expect(folds).toEqual([12]);
    // The worker is still folding 12 entries while 3 more arrive.
    grow(1);
    grow(2);
    expect(clock.pending()).toBe(0);
    clock.elapse();
    expect(folds).toEqual([12]);
    gate.settled();
    expect(clock.pending()).toBe(1);
    clock.elapse();
    expect(folds).toEqual([12, 15]);
  });

  it('a journal growing at every tick is still folded at every delay (not starved by restarts)', () => {
    const { gate, clock, folds, grow } = view(0);
    for (let tick = 0; tick < 5; tick++) {
      grow(1);
      grow(1);
      clock.elapse();
      gate.settled();
    }
    expect(folds).toEqual([2, 4, 6, 8, 10]);
  });

  it('a fold the user started (a new query) covers the growth: no second fold for it', () => {
    const { gate, clock, folds, grow } = view(10);
    grow(4);
    gate.started(14);
    expect(clock.pending()).toBe(0);
    gate.settled();
    clock.elapse();
    expect(folds).toEqual([]);
  });

  it('model summaries gather longer; a closed view folds nothing more', () => {
    const { gate, clock, folds, grow } = view(10, () => 5_000);
    grow(1);
    expect(clock.delays()).toEqual([5_000]);
    gate.dispose();
    clock.elapse();
    grow(1);
    expect(folds).toEqual([]);
    expect(clock.pending()).toBe(0);
  });
});
